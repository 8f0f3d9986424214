--format prom audit --sysfs build/fixtures/r740xd --no-pci-ids --output build/fixtures/r740xd
# exit 74
