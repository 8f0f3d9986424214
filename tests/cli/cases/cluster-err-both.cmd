cluster --nodes 4 --gpus 32
# exit 64
