plan --server r7625 --gpu l40s --gpus-per-server 3
