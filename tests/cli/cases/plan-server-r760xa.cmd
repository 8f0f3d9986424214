plan --server r760xa --gpu h100-nvl --gpus-per-server 4
