plan --spec tests/cli/data/spec-bad-workload.json
# exit 65
