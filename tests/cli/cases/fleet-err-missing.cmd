fleet tests/cli/data/fleet/no-such-file.json
# exit 66
