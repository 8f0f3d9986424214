audit --sysfs build/fixtures/xenial-k44 --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-infer.json
