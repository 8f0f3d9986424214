cluster --nodes 32 --nics-per-node 0 --no-frontend --no-oob --storage-gbps 25 --storage-nodes 8 --storage-switch sn2700 --storage-link-gbps 25
