plan --sysfs build/fixtures/r740xd --workload training --model llama-3-8b --servers 2
# exit 1
