cluster --nodes 4 --gpus-per-node 4 --nics-per-node 4 --nic mcx755106as-heat --switch sn5600 --no-frontend --no-oob
