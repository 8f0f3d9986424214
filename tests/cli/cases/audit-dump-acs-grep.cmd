audit --dump tests/fixtures/pastes/rdma-nccl-523-acsctl-grep-redirect-on.txt
# exit 1
