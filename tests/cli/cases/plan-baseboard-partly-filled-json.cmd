plan --server dgx-h100 --gpu h100-sxm5-80gb --gpus-per-server 2 --servers 4 --model llama-3.1-70b --workload training -j
# exit 1
