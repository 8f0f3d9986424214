audit --sysfs build/fixtures/r740xd --format catalog --pci-ids tests/fixtures/pci.ids
