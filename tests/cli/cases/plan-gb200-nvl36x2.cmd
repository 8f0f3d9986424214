plan --server gb200-nvl36x2 --racks 2 --model llama-3.1-405b --workload training
