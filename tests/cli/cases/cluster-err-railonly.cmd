cluster --nodes 100 --rail-only
# exit 64
