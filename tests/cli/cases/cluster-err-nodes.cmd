cluster --gpus-per-node 8
# exit 64
