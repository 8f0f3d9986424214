--format prom -o bogus fleet tests/cli/data/fleet/dir
# exit 64
