audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt tests/fixtures/dumps/rendered/hgx-h100.lspci-tv.txt tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m.txt
# exit 1
