plan --server sys-4029gp-trt2 --gpu rtx-a6000 --gpus-per-server 10
