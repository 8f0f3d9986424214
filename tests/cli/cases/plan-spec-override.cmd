plan --spec tests/cli/data/spec.json --servers 2 --workload training
# exit 1
