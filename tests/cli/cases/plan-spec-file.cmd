plan --spec tests/cli/data/spec.json
