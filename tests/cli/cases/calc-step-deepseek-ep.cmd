calc step --model deepseek-v3 --precision fp8 --workload inference --gpu h200-sxm-141gb --nodes 2 --ep 16 --concurrency 256 --link 400G --nics-per-node 8
