verify --sysfs build/fixtures/wrx80-t2l tests/fixtures/verify/nccl-tests-2.20-gb10-2node.txt
# exit 2
