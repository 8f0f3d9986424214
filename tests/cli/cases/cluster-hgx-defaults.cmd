cluster --nodes 16 --gpus-per-node 8 --storage-gbps 200 --storage-nodes 4 --no-oob
