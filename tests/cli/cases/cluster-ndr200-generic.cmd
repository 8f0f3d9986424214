cluster --nodes 32 --switch qm9700 --nic-gbps 200 --nics-per-node 4 --no-frontend --no-oob
