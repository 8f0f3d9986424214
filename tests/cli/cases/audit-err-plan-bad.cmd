audit --sysfs build/fixtures/r740xd --plan tests/cli/data/bad-spec.json
# exit 65
