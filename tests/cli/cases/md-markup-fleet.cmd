fleet --format md tests/cli/data/fleet/hostile
# exit 2
