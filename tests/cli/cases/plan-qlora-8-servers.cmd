plan --server generic-gen4 --gpu a40 --gpus-per-server 2 --servers 8 --model llama-3-70b --precision int4 --workload fine-tuning
# exit 1
