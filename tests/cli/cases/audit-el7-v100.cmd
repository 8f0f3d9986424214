audit --sysfs build/fixtures/el7-v100 --pci-ids tests/fixtures/pci.ids
# exit 1
