accept --plan tests/cli/data/broken.json
# exit 65
