--format catalog -o bogus audit --sysfs build/fixtures/r740xd --no-pci-ids
# exit 64
