calc nic --part MCX621102AE-ADAT --slot gen3x8 --format md
