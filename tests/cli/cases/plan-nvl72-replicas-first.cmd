plan --server gb200-nvl72 --racks 2 --model llama-3.1-405b --workload multi-node-inference --concurrency 64
# exit 1
