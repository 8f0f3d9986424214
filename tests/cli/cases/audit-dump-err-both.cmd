audit --dump tests/fixtures/dumps/public --sysfs build/fixtures/r740xd
# exit 64
