plan --server dgx-b300 --servers 64 --model llama-3.1-405b --workload training --fabric spectrum-x --switch sn5600
# exit 1
