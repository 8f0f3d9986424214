verify tests/fixtures/pastes/bench-rccl-929-mi250x-16rank-error-col.txt
# exit 3
