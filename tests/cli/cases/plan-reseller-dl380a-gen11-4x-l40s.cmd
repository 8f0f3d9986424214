plan --server dl380a-gen11 --gpu l40s --gpus-per-server 4 --servers 2 --workload training --model llama-3-8b --backend-cards 2 --json
