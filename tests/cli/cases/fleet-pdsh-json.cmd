fleet --json --pretty tests/cli/data/fleet/pdsh.out
# exit 2
