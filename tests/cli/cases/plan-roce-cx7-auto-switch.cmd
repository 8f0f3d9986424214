plan --example=training --servers 8 --backend-nic mcx75310aas-neat --fabric roce
# exit 1
