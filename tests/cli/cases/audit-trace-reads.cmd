audit --sysfs build/fixtures/r630-gather --trace-reads
