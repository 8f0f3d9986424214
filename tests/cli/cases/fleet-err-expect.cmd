fleet --expect 'vm[3-1]' tests/cli/data/fleet/clean.jsonl
# exit 64
