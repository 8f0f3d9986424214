calc step --model llama-3-70b --gpu h100-sxm5-80gb --workload decode --disaggregated
# exit 64
