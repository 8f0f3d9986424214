plan --server as-8125gs-tnmr2 --servers 4 --model llama-3.1-405b --workload training
# exit 1
