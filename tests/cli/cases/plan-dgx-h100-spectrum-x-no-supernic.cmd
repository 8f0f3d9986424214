plan --server dgx-h100 --servers 32 --model llama-3.1-405b --workload training --fabric spectrum-x
# exit 1
