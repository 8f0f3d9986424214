plan --server r740xd --gpu a40 --gpus-per-server 2 --riser-config 7
# exit 64
