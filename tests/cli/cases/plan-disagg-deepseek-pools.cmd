plan --server xe9680 --gpu h200-sxm-141gb --servers 4 --model deepseek-v3 --disaggregated --prompt-tokens 4096 --tpot-ms 50 --decode-gpus 16 --decode-pp 1
# exit 1
