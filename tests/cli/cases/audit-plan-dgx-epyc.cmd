audit --sysfs build/fixtures/epyc-gen4 --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-dgx-train.json
# exit 1
