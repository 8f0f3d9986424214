calc load --size 40gb --link 10G
# exit 64
