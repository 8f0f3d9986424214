plan --spec tests/cli/data/spec-bad-gpu.json
# exit 66
