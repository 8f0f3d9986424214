calc step --model llama-3-8b --gpu a40 --nodes 2 --gpus-per-node 2 --parallel zero3 --assume mfu=0.5
