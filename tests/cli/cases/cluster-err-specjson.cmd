cluster --spec tests/cli/cases/cluster-broken.json
# exit 65
