plan --server esc8000-g4 --gpu v100-pcie-32gb --gpus-per-server 7 --servers 2 --workload training
