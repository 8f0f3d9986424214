plan --spec tests/cli/data/accept-example-bad.json
# exit 65
