plan --server r7525 --gpu a100-pcie-40gb --gpus-per-server 3
