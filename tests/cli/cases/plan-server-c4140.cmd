plan --server c4140 --gpu v100-pcie-32gb --gpus-per-server 4
