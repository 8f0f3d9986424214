cluster --nodes 4 --nic-gbps 54.5
# exit 64
