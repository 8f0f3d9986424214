calc nic --part mcx556a-ecat --slot gen3x16 --ports 2 -j
