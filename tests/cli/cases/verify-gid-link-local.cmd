verify tests/fixtures/verify/nccl-1657-gid0-link-local.txt
# exit 1
