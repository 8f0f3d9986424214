plan --server dgx-h100 --servers 2 --model llama-3-70b --prompt-tokens 8192
# exit 64
