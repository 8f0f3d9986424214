plan --server r740xd --gpu a40 --gpus-per-server 2 --model llama-3-70b --precision fp16
# exit 2
