--format nhc audit --sysfs build/fixtures/r740xd --no-pci-ids --output /nonexistent-nicfit-dir/nicfit.nhc
# exit 74
