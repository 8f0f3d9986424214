calc step --model llama-3-70b --gpu h100-sxm5-80gb --nodes 1 --workload prefill --context 8192 --disaggregated --json --pretty
