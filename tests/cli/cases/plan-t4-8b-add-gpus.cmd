plan --server generic-gen3 --gpu t4 --gpus-per-server 1 --model llama-3-8b
# exit 1
