catalog check tests/cli/data/bad-catalog.json
# exit 65
