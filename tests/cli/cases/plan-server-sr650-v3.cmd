plan --server sr650-v3 --gpu l40s --gpus-per-server 3
