plna
# exit 64
