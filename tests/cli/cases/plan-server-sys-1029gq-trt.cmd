plan --server sys-1029gq-trt --gpu v100-pcie-32gb --gpus-per-server 4
