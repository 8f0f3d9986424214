plan --server gb200-nvl72 --servers 27 --model llama-3.1-405b --workload training
