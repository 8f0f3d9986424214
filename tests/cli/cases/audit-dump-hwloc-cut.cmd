audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/paste-hwloc1-cut.txt
