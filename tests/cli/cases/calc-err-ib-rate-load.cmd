calc load --size 40GB --link 300G --proto infiniband
# exit 64
