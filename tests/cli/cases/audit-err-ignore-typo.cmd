audit --sysfs build/fixtures/r740xd --ignore nic-pcie-starvd
# exit 64
