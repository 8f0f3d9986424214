cluster --server gb300-nvl72 --racks 8
