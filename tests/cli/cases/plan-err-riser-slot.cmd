plan --server r740xd --gpu a40 --gpus-per-server 2 --riser-config 4 --backend-slot 2
# exit 64
