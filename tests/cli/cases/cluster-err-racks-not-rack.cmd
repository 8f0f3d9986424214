cluster --server dgx-h100 --racks 2
# exit 64
