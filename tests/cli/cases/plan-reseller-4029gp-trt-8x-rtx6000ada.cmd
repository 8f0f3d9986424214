plan --server sys-4029gp-trt --gpu rtx-6000-ada --gpus-per-server 8 --servers 2 --workload training --model llama-3-8b --backend-cards 2
# exit 1
