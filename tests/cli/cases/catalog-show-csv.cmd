catalog show r740xd --format csv
# exit 64
