fleet tests/cli/data/fleet/ansible.json
# exit 1
