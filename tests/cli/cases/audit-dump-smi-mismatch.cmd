audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt --dump tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m-other.txt
# exit 1
