cluster --server gb200-nvl72 --racks 2 --nodes 36
# exit 64
