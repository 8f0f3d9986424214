audit --dump tests/fixtures/dumps/public/fastfetch-1658-lspci-nonroot.txt tests/fixtures/dumps/public/nccl-933-topo-m.txt
