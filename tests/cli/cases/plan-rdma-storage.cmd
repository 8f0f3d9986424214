plan --server r740xd --workload rdma-storage
# exit 1
