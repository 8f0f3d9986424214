audit --sysfs build/fixtures/hgx-h100 --pci-ids tests/fixtures/pci.ids --format nfd --nfd-expiry 0
# exit 1
