calc step --model llama-3-70b --precision int4 --workload fine-tuning --gpu a40 --nodes 8 --gpus-per-node 2 --link 25G --json
