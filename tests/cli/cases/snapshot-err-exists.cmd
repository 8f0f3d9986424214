snapshot --sysfs build/fixtures/r740xd tests
# exit 64
