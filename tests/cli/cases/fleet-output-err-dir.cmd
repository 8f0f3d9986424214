--format prom fleet tests/cli/data/fleet/dir --output tests/cli/data/fleet/dir
# exit 74
