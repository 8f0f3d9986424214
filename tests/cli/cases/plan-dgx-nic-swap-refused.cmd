plan --server dgx-h100 --servers 4 --backend-nic mcx653105a-hdat --model llama-3.1-70b --workload training
# exit 2
