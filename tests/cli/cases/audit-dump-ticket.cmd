audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/ticket-hgx-h100.txt
# exit 1
