plan --server r740xd --servers 2 --gpu a40 --gpus-per-server 2 --model llama-3-8b --workload training --backend-slot 9
# exit 64
