-jp audit --sysfs build/fixtures/r740xd --pci-ids tests/fixtures/pci.ids
# exit 1
