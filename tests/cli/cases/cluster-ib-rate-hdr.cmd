cluster --nodes 16 --switch qm9700 --nic-gbps HDR --no-frontend --no-oob
