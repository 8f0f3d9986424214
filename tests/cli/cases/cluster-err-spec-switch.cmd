cluster --spec tests/cli/data/cluster-bad-switch.json
# exit 66
