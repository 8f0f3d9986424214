--catalog tests/cli/data/hostile-strings-catalog.json catalog list
# exit 65
