audit --sysfs build/fixtures/hgx-h100 --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-dgx-train.json
# exit 1
