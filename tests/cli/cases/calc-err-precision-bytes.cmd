calc load --size 40GB --precision fp8 --link 10G
# exit 64
