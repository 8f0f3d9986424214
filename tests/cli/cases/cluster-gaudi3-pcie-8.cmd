# the same eight HL-338 servers cabled by cluster: 128 x 400G QSFP112 cages on one Tomahawk 5 switch split 2 x 400G
cluster --server generic-gaudi3-8pcie --gpu gaudi3-hl338 --nodes 8 --switch z9864f-on
