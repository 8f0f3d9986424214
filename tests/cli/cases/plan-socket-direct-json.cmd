plan --server r740xd --servers 2 --gpu a40 --gpus-per-server 2 --backend-nic mcx654106a-hcat --model llama-3-70b --workload training --json
# exit 1
