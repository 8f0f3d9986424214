audit --format nccl-topo --sysfs build/fixtures/r740xd
