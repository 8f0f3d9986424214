verify --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt --sysfs build/fixtures/hgx-h100 tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 64
