--format svg verify tests/fixtures/verify/nccl-899-gdr-no-module.txt
# exit 64
