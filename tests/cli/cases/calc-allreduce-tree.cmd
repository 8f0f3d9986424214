calc allreduce --size 1MB --nodes 1024 --link 100G
