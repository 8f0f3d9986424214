audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hwloc2-16intel64-manyVFs.xml
