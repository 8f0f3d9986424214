audit --dump tests/fixtures/pastes/matrix-go-gpuallocator-17-4090-tabs-phb-nic.txt
# exit 1
