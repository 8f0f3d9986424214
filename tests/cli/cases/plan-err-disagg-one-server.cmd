plan --server dgx-h100 --servers 1 --model llama-3-70b --disaggregated
# exit 64
