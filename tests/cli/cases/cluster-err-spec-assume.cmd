cluster --spec tests/cli/data/cluster-bad-assume.json
# exit 65
