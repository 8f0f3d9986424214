-o gpu audit --sysfs build/fixtures/r740xd --format nccl-topo
# exit 64
