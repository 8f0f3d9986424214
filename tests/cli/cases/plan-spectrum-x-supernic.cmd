plan --server generic-gen5 --servers 32 --gpu h100-pcie --gpus-per-server 4 --model llama-3.1-405b --workload training --fabric spectrum-x --explain
# exit 1
