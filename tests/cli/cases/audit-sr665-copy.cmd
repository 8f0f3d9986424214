audit --sysfs build/fixtures/sr665-copy --pci-ids tests/fixtures/pci.ids
