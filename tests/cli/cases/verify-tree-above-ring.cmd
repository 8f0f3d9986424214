verify --link NDR --nodes 2 --nics-per-node 8 tests/fixtures/verify/nccl-tests-2.19.6-2node-16rank-summary.txt
