cluster --nodes 16 --nics-per-node 0 --frontend-links 2 --frontend-gbps 100 --frontend-uplinks 4 --storage-gbps 200 --storage-nodes 4
