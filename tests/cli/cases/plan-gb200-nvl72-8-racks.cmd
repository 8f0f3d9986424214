plan --server gb200-nvl72 --racks 8 --model llama-3.1-405b --workload training
