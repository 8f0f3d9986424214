plan --server r740xd --gpu l4 --gpus-per-server 6
