plan --server xe9680 --gpu h200-sxm-141gb --servers 8 --model deepseek-v3 --disaggregated --prompt-tokens 4096 --tpot-ms 50 --requests-per-s 200 --kv-over backend
# exit 1
