plan --server sr650-v2 --gpu a40 --gpus-per-server 3
