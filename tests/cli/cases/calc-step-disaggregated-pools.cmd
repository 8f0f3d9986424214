calc step --model llama-3-70b --gpu h100-sxm5-80gb --nodes 1 --workload prefill --context 8192 --disaggregated --link 400G --proto ib --nics-per-node 8 --requests-per-s 10
