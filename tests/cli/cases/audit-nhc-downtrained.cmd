audit --sysfs build/fixtures/epyc-gen4 --pci-ids tests/fixtures/pci.ids --format nhc
# exit 1
