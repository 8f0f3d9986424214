cluster --nodes 48 --nics-per-node 0 --frontend-uplinks 8 --no-oob
# exit 64
