fleet tests/cli/data/fleet/srun.out
# exit 2
