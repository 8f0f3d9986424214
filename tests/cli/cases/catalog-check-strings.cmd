catalog check tests/cli/data/hostile-strings-catalog.json
# exit 65
