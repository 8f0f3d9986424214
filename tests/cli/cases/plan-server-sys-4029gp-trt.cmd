plan --server sys-4029gp-trt --gpu rtx-a6000 --gpus-per-server 8
