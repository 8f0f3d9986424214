verify tests/fixtures/verify/nv_peer_memory-56-nccl-2.4.7.txt
