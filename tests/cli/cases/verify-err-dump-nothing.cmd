verify --dump tests/fixtures/dumps/README.md tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 65
