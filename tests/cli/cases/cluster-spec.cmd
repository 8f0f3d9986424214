cluster --spec tests/cli/cases/cluster-spec.json --nodes 32
