cluster --nodes 4 --switch qm97
# exit 66
