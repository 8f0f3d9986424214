plan --server dgx-b200 --servers 2 --model llama-3.1-70b --workload training --json
