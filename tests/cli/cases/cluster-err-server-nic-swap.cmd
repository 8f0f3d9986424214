cluster --server dgx-h100 --nodes 4 --nic mcx653105a-hdat
# exit 64
