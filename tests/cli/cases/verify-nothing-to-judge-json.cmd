verify --json tests/fixtures/verify/nccl-tests-294-h100-2node-header.txt
# exit 3
