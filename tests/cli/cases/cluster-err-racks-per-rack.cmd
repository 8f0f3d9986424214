cluster --server gb200-nvl72 --racks 1 --nodes-per-rack 8
# exit 64
