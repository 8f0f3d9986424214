plan --server g292-z20 --gpu a100-pcie-40gb --gpus-per-server 8
