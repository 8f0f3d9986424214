audit --sysfs build/fixtures/r740xd --assume mps=7
# exit 64
