-jp audit --sysfs build/fixtures/x11-200g --pci-ids tests/fixtures/pci.ids
# exit 1
