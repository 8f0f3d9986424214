verify --dump tests/fixtures/dumps/rendered/r740xd.lspci-vvv.txt --dump tests/fixtures/dumps/rendered/r740xd.lspci-tv.txt --nodes 3 tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
# exit 65
