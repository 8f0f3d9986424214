cluster --nodes 8 --gpus-per-node 1 --nics-per-node 1 --nic mcx613106a-vdat --switch dcs-7060dx5-64s --no-frontend --no-oob
