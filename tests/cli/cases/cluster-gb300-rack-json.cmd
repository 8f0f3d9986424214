cluster --server gb300-nvl72 --racks 1 --switch q3400 --format json
