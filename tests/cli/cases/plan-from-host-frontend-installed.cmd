plan --sysfs build/fixtures/wrx80-t2l --workload inference --model llama-3-8b --explain
