verify --link 100GbE tests/fixtures/verify/iperf3-json-gcp-1stream.json
# exit 2
