plan --server dgx-h100 --servers 2 --model llama-3.1-405b --workload training --fabric infiniband
# exit 1
