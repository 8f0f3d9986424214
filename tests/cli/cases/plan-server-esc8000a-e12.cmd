plan --server esc8000a-e12 --gpu l40s --gpus-per-server 8
