plan --server as-4124gs-tnr --gpu a100-pcie-80gb --gpus-per-server 8
