fleet tests/cli/data/fleet/ansible.jsonl
# exit 1
