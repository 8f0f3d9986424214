calc nic --part 900-9X81E-00EX-ST0 --slot gen5x16
