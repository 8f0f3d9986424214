cluster --nodes 10000
# exit 64
