fleet --ignore host-virtual,kernel tests/cli/data/fleet/pdsh.out
# exit 2
