fleet --ignore kernel,port-down --ignore audit-unreadable tests/cli/data/fleet/pdsh.out
