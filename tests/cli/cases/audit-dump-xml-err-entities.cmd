audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/nccl-entities.xml
# exit 65
