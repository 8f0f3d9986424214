audit --format nccl-topo --sysfs build/fixtures/kvm-vm
