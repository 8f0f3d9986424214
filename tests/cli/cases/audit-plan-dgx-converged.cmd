audit --sysfs build/fixtures/r740xd --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-dgx-train.json
# exit 1
