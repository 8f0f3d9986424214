calc load --size 40GB --link 10GB/s
# exit 64
