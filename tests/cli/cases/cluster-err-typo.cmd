cluster --nodes 4 --rail-optimised
# exit 64
