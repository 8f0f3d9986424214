calc nic --part x710-da2 --slot gen3x8 --proto ib
# exit 64
