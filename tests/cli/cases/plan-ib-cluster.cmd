plan --server generic-gen4 --servers 8 --gpu l40s --gpus-per-server 4 --model llama-3-70b --workload training --fabric infiniband
# exit 1
