plan --server r660 --gpu l4 --gpus-per-server 3
