calc allreduce --size 16GB --nodes 2 --link 100G
