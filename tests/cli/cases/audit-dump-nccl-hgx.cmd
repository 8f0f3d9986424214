audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hgx-h100.nccl-topo.xml
