fleet --format csv tests/cli/data/fleet/pdsh.out
# exit 2
