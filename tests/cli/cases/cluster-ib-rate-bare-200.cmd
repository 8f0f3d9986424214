cluster --nodes 16 --switch qm9700 --nic-gbps 200 --no-frontend --no-oob
