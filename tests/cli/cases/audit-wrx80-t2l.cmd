audit --sysfs build/fixtures/wrx80-t2l --no-pci-ids
# exit 1
