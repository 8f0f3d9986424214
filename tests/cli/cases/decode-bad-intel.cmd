decode --rules X710-DA3
# exit 65
