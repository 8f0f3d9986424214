cluster --nodes 16 --switch qm9700 --nic mcx75310aas-neat --nodes-per-rack 2
