calc load --size 40GB --link 10G --storage-gbps 4 --format md
