cluster --nodes 4 --nic mcx4121a-acat --nic-gbps EDR
# exit 64
