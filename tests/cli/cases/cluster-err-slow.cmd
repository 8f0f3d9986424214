cluster --nodes 4 --switch sn2100 --nic-gbps 400
# exit 64
