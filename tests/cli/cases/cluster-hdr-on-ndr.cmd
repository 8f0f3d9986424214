cluster --nodes 32 --gpus-per-node 4 --nics-per-node 4 --nic mcx653105a-hdat --switch qm9700 --no-frontend --no-oob
