plan --server gb200-nvl72 --racks 2 --servers 36
# exit 64
