--catalog tests/cli/data/hostile-bidi-catalog.json catalog list
# exit 65
