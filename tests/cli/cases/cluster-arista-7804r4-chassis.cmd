cluster --nodes 128 --gpu mi355x --nic pollara-400 --switch arista-7804r4 --no-frontend --no-oob
