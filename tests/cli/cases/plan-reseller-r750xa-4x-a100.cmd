plan --server r750xa --gpu a100-pcie-80gb --gpus-per-server 4 --servers 2 --workload training --model llama-3-8b --backend-cards 2
