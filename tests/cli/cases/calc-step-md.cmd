calc step --model llama-3.1-405b --gpu h100-sxm5-80gb --nodes 32 --link 200G --nics-per-node 8 --format md
