calc allreduce --size 1GB --nodes 4 --link HDR --proto roce
# exit 64
