audit --sysfs build/fixtures/r740xd --assume mps=512 --pci-ids tests/fixtures/pci.ids
# exit 1
