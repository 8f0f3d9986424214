calc nic --part bcm957608-p2200gqf00 --slot gen5x16 --ports 2
