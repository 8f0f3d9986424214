audit --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt tests/fixtures/dumps/public/l2fwd-nv-6-ibstat.txt tests/fixtures/dumps/public/nccl-1573-show-gids.txt tests/fixtures/dumps/public/network-operator-249-ibstat.txt --format json
# exit 1
