audit --sysfs build/fixtures/mi300x-thor2 --pci-ids tests/fixtures/pci.ids
# exit 1
