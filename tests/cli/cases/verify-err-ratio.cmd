verify --low-ratio 0.3 --far-ratio 0.6 tests/fixtures/verify/nccl-899-gdr-no-module.txt
# exit 64
