--format nccl-topo plan --example
# exit 64
