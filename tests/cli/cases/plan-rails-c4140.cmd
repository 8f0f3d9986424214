plan --server c4140 --gpu v100-pcie-32gb --gpus-per-server 4 --servers 2 --workload training --model llama-3-8b --backend-cards 1
