plan --server r650 --gpu a2 --gpus-per-server 3
