verify tests/fixtures/pastes/damaged-deepep-106-nccl-lines-run-together.txt
