audit --dump tests/fixtures/dumps/none.txt
# exit 66
