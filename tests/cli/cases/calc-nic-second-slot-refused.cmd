calc nic --part mcx75310aas-neat --slot gen5x16 --slot gen5x16
# exit 64
