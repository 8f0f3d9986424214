plan --server generic-gen5 --servers 4 --gpu h100-pcie --gpus-per-server 2 --backend-cards 4 --model llama-3-70b --workload training
# exit 1
