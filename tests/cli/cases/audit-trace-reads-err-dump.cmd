audit --dump tests/fixtures/dumps/ticket-hgx-h100.txt --trace-reads
# exit 64
