cluster --server gb200-nvl72 --racks 8 --switch qm9700
