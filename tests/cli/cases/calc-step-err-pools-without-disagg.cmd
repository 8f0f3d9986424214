calc step --model llama-3-70b --gpu h100-sxm5-80gb --workload prefill --requests-per-s 10
# exit 64
