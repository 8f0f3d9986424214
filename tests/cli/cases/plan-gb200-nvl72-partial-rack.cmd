plan --server gb200-nvl72 --servers 9 --model llama-3.1-405b --workload training
# exit 1
