decode
# exit 64
