catalog check tests/cli/data/no-such-file.json
# exit 66
