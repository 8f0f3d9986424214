plan --server c4130 --gpu v100-pcie-32gb --gpus-per-server 4
