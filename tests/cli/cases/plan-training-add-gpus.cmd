plan --server r740xd --gpu a40 --gpus-per-server 2 --model llama-3-8b --workload training
# exit 1
