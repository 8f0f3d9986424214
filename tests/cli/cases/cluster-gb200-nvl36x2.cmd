cluster --server gb200-nvl36x2 --racks 2 --switch qm9700 --no-oob
