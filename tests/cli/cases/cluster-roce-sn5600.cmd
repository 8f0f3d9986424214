cluster --nodes 8 --gpus-per-node 1 --nics-per-node 1 --nic mcx75310aas-neat --switch sn5600 --no-frontend --no-oob
