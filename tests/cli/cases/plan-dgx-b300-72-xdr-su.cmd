plan --server dgx-b300 --servers 72 --model llama-3.1-405b --workload training
