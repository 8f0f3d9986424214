accept --plan tests/cli/data/plan-bad-servers.json
# exit 65
