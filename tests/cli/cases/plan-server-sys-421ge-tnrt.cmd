plan --server sys-421ge-tnrt --gpu l40s --gpus-per-server 10
