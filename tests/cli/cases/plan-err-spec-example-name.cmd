plan --spec tests/cli/data/plan-example-unknown.json
# exit 65
