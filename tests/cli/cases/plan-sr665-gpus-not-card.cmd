plan --server sr665 --servers 8 --gpu a100-pcie-80gb --gpus-per-server 4 --model llama-3-70b --workload training --fabric infiniband
# exit 2
