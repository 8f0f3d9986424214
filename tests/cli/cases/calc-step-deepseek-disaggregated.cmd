calc step --model deepseek-v3 --gpu h200-sxm-141gb --precision fp8 --nodes 2 --ep 16 --workload prefill --context 4096 --concurrency 8 --disaggregated --link 400G --proto ib --nics-per-node 8
