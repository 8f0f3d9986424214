cluster --nodes 16 --nics-per-node 0 --frontend-links 2 --frontend-gbps 100 --frontend-uplinks 4 --no-oob --storage-gbps 200 --storage-nodes 4 --format svg
