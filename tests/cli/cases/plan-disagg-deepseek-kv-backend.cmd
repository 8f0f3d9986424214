plan --server xe9680 --gpu h200-sxm-141gb --servers 2 --model deepseek-v3 --disaggregated --prompt-tokens 4096 --tpot-ms 50 --kv-over backend --assume kv_layerwise=1
