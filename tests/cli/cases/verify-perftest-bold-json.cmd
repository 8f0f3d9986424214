--json verify tests/fixtures/verify/perftest-65-send-bw-markdown.txt
# exit 3
