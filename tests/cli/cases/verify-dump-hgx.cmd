verify --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-tv.txt --dump tests/fixtures/dumps/rendered/hgx-h100.smi-topo-m.txt --nodes 3 tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 2
