-o gpu audit --sysfs build/fixtures/r740xd --format prom
# exit 64
