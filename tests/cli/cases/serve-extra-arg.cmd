serve now
# exit 64
