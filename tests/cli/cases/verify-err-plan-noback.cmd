verify --plan tests/cli/data/spec.json tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 65
