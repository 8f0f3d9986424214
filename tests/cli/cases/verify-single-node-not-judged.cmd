verify tests/fixtures/pastes/bench-hpc-ai-envs-30-rccl-tests-mi300x.txt
# exit 3
