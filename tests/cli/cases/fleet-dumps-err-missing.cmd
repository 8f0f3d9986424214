fleet --dumps tests/fixtures/dumps/none
# exit 66
