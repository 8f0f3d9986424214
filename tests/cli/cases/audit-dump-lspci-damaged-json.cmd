# the same as JSON: read_problems lists each value at FILE:LINE
audit --json --dump tests/fixtures/dumps/written/lspci-damaged.txt
