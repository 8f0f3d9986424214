fleet --strict tests/cli/data/fleet/dir
# exit 65
