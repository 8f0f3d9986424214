audit --sysfs build/fixtures/x11-200g --pci-ids tests/fixtures/pci.ids --ignore nic-pcie-starved --ignore gpu-link-idle@0000:3b:00.0
