plan --server r740xdd
# exit 66
