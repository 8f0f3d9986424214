plan --example=training --servers 8 --backend-nic mcx75310aas-neat --fabric roce --switch dcs-7060dx5-64s
# exit 1
