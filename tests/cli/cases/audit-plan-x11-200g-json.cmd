-jp audit --sysfs build/fixtures/x11-200g --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-train.json
# exit 1
