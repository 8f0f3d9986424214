cluster --nodes 16 --gpus-per-node 8 --nic mcx75310aas-neat --switch sn5400 --no-oob --no-frontend
