calc allreduce --size 140GB --nodes 8 --link HDR --nics-per-node 2 --sharp --format md
