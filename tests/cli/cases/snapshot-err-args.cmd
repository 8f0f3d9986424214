snapshot
# exit 64
