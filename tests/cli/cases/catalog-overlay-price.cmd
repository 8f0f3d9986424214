--catalog tests/cli/data/prices.json plan --example=training --format csv
# exit 1
