plan --server dl380-gen10-plus --gpu a40 --gpus-per-server 3
