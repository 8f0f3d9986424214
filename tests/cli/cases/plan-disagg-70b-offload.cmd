plan --server dgx-h100 --servers 4 --model llama-3.1-70b --disaggregated --prompt-tokens 8192 --kv-offload storage --assume kv_hit_rate=0.8
