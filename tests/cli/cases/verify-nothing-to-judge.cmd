verify tests/fixtures/verify/perftest-273-write-bw-8byte.txt
# exit 3
