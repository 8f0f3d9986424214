audit --json --dump tests/fixtures/pastes/matrix-sglang-965-checkenv-a100-4nic.txt
