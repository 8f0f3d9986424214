plan --server generic-gen5 --servers 4 --gpu l4 --gpus-per-server 4 --backend-cards 4 --model llama-3-8b --workload training
# exit 1
