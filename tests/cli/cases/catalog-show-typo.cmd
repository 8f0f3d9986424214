catalog show r740x
# exit 66
