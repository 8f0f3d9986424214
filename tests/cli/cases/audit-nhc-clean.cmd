audit --sysfs build/fixtures/r740-interleave --pci-ids tests/fixtures/pci.ids --format nhc
