catalog check tests/cli/data/nul-catalog.json
# exit 65
