catalog check tests/cli/data/broken.json
# exit 65
