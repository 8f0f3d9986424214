plan --spec tests/cli/data/spec-nul.json
# exit 65
