plan --server dgx-b300 --servers 32 --model llama-3.1-405b --workload training
