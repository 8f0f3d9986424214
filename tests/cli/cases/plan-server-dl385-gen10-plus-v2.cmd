plan --server dl385-gen10-plus-v2 --gpu a100-pcie-80gb --gpus-per-server 3
