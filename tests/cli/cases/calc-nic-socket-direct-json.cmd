calc nic --part MCX654106A-HCAT --slot gen3x16 -j
