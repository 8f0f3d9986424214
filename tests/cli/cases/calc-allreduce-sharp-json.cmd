calc allreduce --size 16GB --nodes 8 --link HDR --sharp --json
