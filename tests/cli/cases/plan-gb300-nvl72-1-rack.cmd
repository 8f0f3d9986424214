plan --server gb300-nvl72 --racks 1 --model llama-3.1-405b --workload training
