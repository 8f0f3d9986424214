audit --dump tests/fixtures/dumps/public
# exit 1
