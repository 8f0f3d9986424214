# NCCL's topology against a matrix that differs in kind: NODE where NCCL's tree has PIX still warns; PXB where it has PIX (GPU-GPU) is counted as not told apart
audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/xml/hgx-h100.nccl-topo.xml tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m-nccl.txt
# exit 1
