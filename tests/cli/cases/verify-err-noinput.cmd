verify
# exit 64
