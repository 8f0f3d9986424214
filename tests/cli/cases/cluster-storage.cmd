cluster --nodes 128 --gpus-per-node 8 --nic mcx75310aas-neat --switch qm9700 --storage-gbps 400 --storage-nodes 16 --storage-oversubscription 2 --no-oob
