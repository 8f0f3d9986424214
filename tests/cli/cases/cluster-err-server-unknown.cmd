cluster --server no-such-box --nodes 2
# exit 66
