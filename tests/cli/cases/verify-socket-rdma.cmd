verify --link 100GbE --proto roce tests/fixtures/verify/nccl-941-container-socket-2.17.1.txt
# exit 2
