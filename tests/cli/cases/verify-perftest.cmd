verify --link EDR tests/fixtures/verify/perftest-65-send-bw-markdown.txt
# exit 2
