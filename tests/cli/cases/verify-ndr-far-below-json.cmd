-j verify --link NDR --nodes 3 --gpus-per-node 8 tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 2
