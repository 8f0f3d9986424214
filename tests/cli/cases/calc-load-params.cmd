calc load --size 70B --link 10G
