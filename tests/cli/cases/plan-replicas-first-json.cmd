plan --server dgx-h100 --servers 2 --model llama-3-70b --precision bf16 --workload multi-node-inference --concurrency 64 --json --pretty
# exit 1
