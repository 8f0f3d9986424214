verify --link 100GbE --nodes 2 --nics-per-node 1 tests/fixtures/verify/nccl-tests-232-h100-tree-4nic.txt
# exit 1
