# hwloc's XML keeps the switches' downstream ports: a PIX cell where its tree has PXB is still a mismatch (only NCCL's tree cannot tell the two apart)
audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hgx-h100.hwloc.xml tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m-other.txt
# exit 1
