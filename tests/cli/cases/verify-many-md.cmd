--format md verify --link 100GbE tests/fixtures/verify/iperf3-json-gcp-1stream.json tests/fixtures/verify/perftest-273-write-bw-8byte.txt tests/fixtures/verify/nccl-tests-131-libibverbs-socket-2.16.5.txt
# exit 2
