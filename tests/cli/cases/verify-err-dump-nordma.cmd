verify --dump tests/fixtures/dumps/public/fastfetch-1658-lspci-nonroot.txt tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 65
