cluster --nodes 10 --planes 3
# exit 64
