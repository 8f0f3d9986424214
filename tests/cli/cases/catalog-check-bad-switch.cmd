catalog check tests/cli/data/bad-switch-catalog.json
# exit 65
