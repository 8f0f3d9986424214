fleet --format svg tests/cli/data/fleet/clean.jsonl
# exit 64
