plan --server sr675-v3 --gpu h100-nvl --gpus-per-server 8
