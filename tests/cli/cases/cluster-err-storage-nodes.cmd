cluster --nodes 4 --storage-gbps 400
# exit 64
