calc load --size 40XB --link 10G
# exit 64
