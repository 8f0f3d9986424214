cluster --nodes 32 --gpus-per-node 8 --nics-per-node 8 --nic mcx75310aas-neat --switch dcs-7060x6-64pe --no-frontend --no-oob
