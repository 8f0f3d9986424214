fleet --ignore kernel,link-widht tests/cli/data/fleet/pdsh.out
# exit 64
