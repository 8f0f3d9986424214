calc step --model llama-3-8b --gpu a40 --parallel zero4
# exit 64
