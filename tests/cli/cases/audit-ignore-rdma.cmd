audit --sysfs build/fixtures/r740xd --pci-ids tests/fixtures/pci.ids --ignore roce-no-pfc@0000:3b:00.0 --ignore nic-wrong-socket@mlx5_0 --ignore intel-700-no-link@eno2
# exit 1
