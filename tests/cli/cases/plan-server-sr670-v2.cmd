plan --server sr670-v2 --gpu a100-pcie-80gb --gpus-per-server 4
