verify --sysfs build/fixtures/r740xd --nodes 3 tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 1
