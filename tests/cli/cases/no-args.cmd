
# exit 64
