plan --sysfs build/fixtures/hgx-h100 --servers 32 --model llama-3.1-405b --workload training
# exit 1
