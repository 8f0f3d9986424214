calc load --size 40GB --link 10G
