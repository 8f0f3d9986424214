plan --server dgx-b200 --servers 32 --model llama-3.1-405b --workload training
# exit 1
