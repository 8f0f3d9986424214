cluster --nodes 80 --gpus-per-node 1 --nics-per-node 1 --nic mcx556a-ecat --switch qm8700 --no-frontend --no-oob
