audit --dump tests/fixtures/dumps/README.md
# exit 65
