# NCCL XML: a <pci> whose busid is no PCI address is a read problem and keeps the GPU and NIC nested in it; a numaid past any node is one too; a VMD domain (10000) is read
audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/nccl-damaged.xml
