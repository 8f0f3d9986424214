catalog check tests/cli/data/catalog-bad-cages.json
# exit 65
