calc nic --part MCX653105A-HDAT --slot gen3x16
