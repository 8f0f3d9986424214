verify tests/fixtures/verify/nccl-226-aws-socket-noib.txt
