audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hwloc1-32em64t-2n8c2t-pci-wholeio.xml
