# NCCL's topology and nvidia-smi topo -m: the comparison names NCCL's tree, not an lspci listing
audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hgx-h100.nccl-topo.xml tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m.txt
# exit 1
