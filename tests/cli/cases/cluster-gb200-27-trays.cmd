cluster --server gb200-nvl72 --nodes 27 --switch qm9700
