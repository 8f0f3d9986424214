plan --server dl380a-gen11 --servers 2 --gpu h100-pcie --gpus-per-server 2 --backend-nic 900-9x81e-00ex-st0 --backend-gbps 400 --workload training
