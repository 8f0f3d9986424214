cluster --racks 2
# exit 64
