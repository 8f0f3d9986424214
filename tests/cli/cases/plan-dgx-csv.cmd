plan --server dgx-h100 --servers 2 --model llama-3.1-70b --workload training --format csv
