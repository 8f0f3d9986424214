cluster --nodes 4 --storage-gbps 200 --storage-nodes 2 --storage-link-gbps 37
# exit 64
