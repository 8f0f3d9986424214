fleet tests/cli/data/fleet/dir
# exit 2
