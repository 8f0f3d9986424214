audit --sysfs build/fixtures/kvm-vm --pci-ids tests/fixtures/pci.ids
