audit --pci-ids tests/fixtures/pci.ids --plan tests/cli/data/audit-train.json --dump tests/fixtures/dumps/rendered/r740xd.lspci-vvv.txt tests/fixtures/dumps/rendered/r740xd.lspci-tv.txt
# exit 2
