audit --all --sysfs build/fixtures/hpt-nvme --pci-ids tests/fixtures/pci.ids
