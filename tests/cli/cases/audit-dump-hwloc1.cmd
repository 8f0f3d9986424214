audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hwloc1-24em64t-2n6c2t-pci.xml
# exit 1
