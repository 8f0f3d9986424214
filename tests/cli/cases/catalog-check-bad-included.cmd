catalog check tests/cli/data/bad-included-catalog.json
# exit 65
