cluster --nodes 4 --switch sn5600 --nic-gbps HDR
# exit 64
