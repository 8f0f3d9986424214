verify tests/fixtures/verify/nccl-527-p4d-ofi-efa-2.9.9.txt tests/fixtures/verify/determined-169-slingshot-ofi-cxi.txt
