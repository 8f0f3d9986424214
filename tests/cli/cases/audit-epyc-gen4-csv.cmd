--format csv audit --sysfs build/fixtures/epyc-gen4 --pci-ids tests/fixtures/pci.ids
# exit 1
