-p catalog check -j tests/cli/data/bad-catalog.json data/gpus.json
# exit 65
