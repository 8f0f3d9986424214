plan --server generic-gaudi3-8oam --servers 8 --model llama-3.1-405b --workload training
