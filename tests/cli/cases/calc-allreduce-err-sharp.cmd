calc allreduce --size 16GB --nodes 8 --link 100G --proto roce --sharp
# exit 64
