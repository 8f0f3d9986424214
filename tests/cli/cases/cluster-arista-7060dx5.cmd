cluster --nodes 8 --gpus-per-node 1 --nics-per-node 1 --nic mcx75310aas-neat --switch dcs-7060dx5-64s --no-frontend --no-oob
