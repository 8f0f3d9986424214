fleet --format csv tests/cli/data/fleet/hostile
# exit 2
