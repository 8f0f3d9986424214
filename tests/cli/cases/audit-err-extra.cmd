audit --sysfs build/fixtures/r740xd extra
# exit 64
