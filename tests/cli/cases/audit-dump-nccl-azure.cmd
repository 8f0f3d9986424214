audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/verify/azure-ndv5-topo.xml
