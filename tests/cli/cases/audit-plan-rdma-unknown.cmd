audit --sysfs build/fixtures/r630-gather --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-train.json
