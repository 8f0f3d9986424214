verify --nic MCX75310AAS-NEAT --nodes 3 --gpus-per-node 8 --far-ratio 0.05 --low-ratio 0.5 tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 1
