# lspci -vvv and NCCL's topology of one machine, with nvidia-smi topo -m: lspci's bus ranges place every function (NCCL's nesting has no downstream ports), so all 96 cells are compared as one class
audit --pci-ids tests/fixtures/pci.ids --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt tests/fixtures/dumps/xml/hgx-h100.nccl-topo.xml tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m.txt
# exit 1
