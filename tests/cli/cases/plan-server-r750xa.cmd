plan --server r750xa --gpu a100-pcie-80gb --gpus-per-server 4
