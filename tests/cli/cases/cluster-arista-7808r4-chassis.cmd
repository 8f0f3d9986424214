cluster --nodes 256 --gpu mi355x --nic pollara-400 --switch arista-7808r4 --no-frontend --no-oob --assume rack_u=48
