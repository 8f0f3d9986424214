catalog check tests/cli/data/hostile-bidi-catalog.json
# exit 65
