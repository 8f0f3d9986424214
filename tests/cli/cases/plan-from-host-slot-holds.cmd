plan --sysfs build/fixtures/r630-gather --workload training --model llama-3-8b --servers 2
# exit 2
