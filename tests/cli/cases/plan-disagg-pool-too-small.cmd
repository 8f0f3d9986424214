plan --server dgx-h100 --servers 4 --model llama-3.1-70b --disaggregated --decode-gpus 1
# exit 1
