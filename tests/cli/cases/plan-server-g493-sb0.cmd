plan --server g493-sb0 --gpu h100-nvl --gpus-per-server 8
