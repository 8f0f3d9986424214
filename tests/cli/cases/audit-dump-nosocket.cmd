# lspci -vvv of a two-node host and ibstat, no lscpu: the cross-socket finding names NUMA nodes
audit --dump tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt tests/fixtures/dumps/public/network-operator-249-ibstat.txt tests/fixtures/dumps/public/l2fwd-nv-6-ibstat.txt
# exit 1
