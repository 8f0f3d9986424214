calc nic --part mcx654106a-hcat --slot gen3x16
