verify --plan tests/cli/data/spec.json --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 64
