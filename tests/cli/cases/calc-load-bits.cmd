calc load --size 40Gb --link 10G
