# a cell switch of a scheduled fabric has no Ethernet port for a node
cluster --nodes 16 --gpu mi355x --nic pollara-400 --switch arista-7720r4-128pe
# exit 64
