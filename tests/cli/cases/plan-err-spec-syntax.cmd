plan --spec tests/cli/data/broken.json
# exit 65
