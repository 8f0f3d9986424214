verify --dump tests/fixtures/dumps/no-such-dump.txt tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 66
