plan --server dgx-h100 --servers 2 --model llama-3-70b --checkpoint-every 30
# exit 64
