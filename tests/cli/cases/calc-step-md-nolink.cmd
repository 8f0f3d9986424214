calc step --model llama-3-8b --gpu a40 --nodes 2 --gpus-per-node 2 --format md
