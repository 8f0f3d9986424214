plan --server dgx-h100 --servers 1024 --model llama-3.1-405b --workload training --fabric infiniband
