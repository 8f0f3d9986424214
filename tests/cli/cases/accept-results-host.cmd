accept --sysfs build/fixtures/r740xd --results tests/fixtures/accept/r740xd-host
# exit 2
