plan --server sys-4029gp-tvrt --servers 2 --workload training --model llama-3-8b
