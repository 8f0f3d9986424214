cluster --server gb200-nvl72 --racks 16
