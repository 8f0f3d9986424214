# one fabric tier of 7720R4-128PE cell switches holds 128 leaves per plane: 600 nodes of 8 x 400G are refused with the limit
cluster --nodes 600 --gpu mi355x --nic pollara-400 --switch arista-7700r4c-38pe --rail-optimized --no-frontend --no-oob
# exit 64
