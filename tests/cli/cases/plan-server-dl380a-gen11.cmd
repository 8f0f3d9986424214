plan --server dl380a-gen11 --gpu l40s --gpus-per-server 4
