cluster --spec tests/cli/cases/cluster-bad.json
# exit 65
