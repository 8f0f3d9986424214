fleet tests/cli/data/fleet/clush-b.out
# exit 1
