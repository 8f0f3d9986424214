cluster --server gb200-nvl72 --nodes 20 --switch qm9700 --no-oob --no-frontend
