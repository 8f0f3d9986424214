# a scheduled fabric: 36 MI355X nodes, one Pollara 400 per GPU, rail-optimized on Jericho3-AI leaves (Arista 7700R4C-38PE) over Ramon3 cell switches (7720R4-128PE): 8 leaves and 2 cell switches, the size of AMD's 17-36 node scheduled rail design
cluster --nodes 36 --gpu mi355x --nic pollara-400 --switch arista-7700r4c-38pe --rail-optimized --no-frontend --no-oob
