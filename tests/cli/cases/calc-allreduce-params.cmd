calc allreduce --size 8B --nodes 2 --link 100G
