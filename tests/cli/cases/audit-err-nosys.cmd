audit --sysfs tests/fixtures
# exit 66
