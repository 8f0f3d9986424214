audit --sysfs build/fixtures/r740xd --plan tests/cli/data/nonexistent.json
# exit 66
