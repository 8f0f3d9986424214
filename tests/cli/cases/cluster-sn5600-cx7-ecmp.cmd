cluster --nodes 32 --nic mcx75310aas-neat --switch sn5600 --no-frontend --no-oob
