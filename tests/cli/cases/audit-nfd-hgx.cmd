audit --sysfs build/fixtures/hgx-h100 --pci-ids tests/fixtures/pci.ids --format nfd
# exit 1
