plan --server r740xd --gpu l4 --gpus-per-server 2 --workload training --servers 2 --backend-slot 2
# exit 1
