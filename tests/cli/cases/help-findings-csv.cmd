help findings --format csv
# exit 64
