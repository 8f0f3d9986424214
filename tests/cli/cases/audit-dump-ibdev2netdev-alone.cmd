audit --dump tests/fixtures/pastes/rdma-cluster-health-4-ibdev2netdev-commented.txt
# exit 3
