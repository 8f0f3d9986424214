fleet --bogus tests/cli/data/fleet/clean.jsonl
# exit 64
