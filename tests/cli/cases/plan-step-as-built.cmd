plan --server sys-221ge-nr --gpu h100-pcie --gpus-per-server 8 --model llama-3.1-405b --workload training --servers 4
# exit 2
