fleet --expect 'vm[01-07]' tests/cli/data/fleet/clean.jsonl
# exit 2
