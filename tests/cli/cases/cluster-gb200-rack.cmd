cluster --server gb200-nvl72 --racks 1 --switch qm9700
