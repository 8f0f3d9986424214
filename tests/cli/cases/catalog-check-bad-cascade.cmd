catalog check tests/cli/data/bad-cascade-catalog.json
# exit 65
