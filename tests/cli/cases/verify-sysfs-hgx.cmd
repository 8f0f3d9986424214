verify --sysfs build/fixtures/hgx-h100 --nodes 3 tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 2
