audit --sysfs build/fixtures/kvm-vm --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-train.json
# exit 65
