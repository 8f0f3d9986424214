plan --server dgx-h100 --servers 2 --model llama-3-70b --disaggregated --prompt-tokens 8192
# exit 64
