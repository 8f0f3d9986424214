plan --server dgx-h100 --gpu a40 --gpus-per-server 2 --model llama-3-70b
# exit 2
