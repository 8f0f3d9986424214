plan --spec tests/cli/data/bad-spec.json
# exit 65
