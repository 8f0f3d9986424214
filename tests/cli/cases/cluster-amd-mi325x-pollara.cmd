cluster --nodes 16 --gpu mi325x --nic pollara-400 --switch z9864f-on --rail-optimized --no-frontend --no-oob
