verify --plan tests/cli/data/spec.json --link 100G tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 64
