fleet --format md tests/cli/data/fleet/pdsh.out
# exit 2
