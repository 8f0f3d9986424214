calc nic --part mcx556 --slot gen3x16
# exit 65
