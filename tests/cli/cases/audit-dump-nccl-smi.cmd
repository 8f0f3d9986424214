# NCCL's topology and nvidia-smi topo -m: the comparison names NCCL's tree; the PXB cells where NCCL's tree (no downstream ports) gives PIX are counted as not told apart, not warned
audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hgx-h100.nccl-topo.xml tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m.txt
