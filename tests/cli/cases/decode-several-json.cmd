-j decode --rules MCX4121A-ACAT hello X710-DA2
# exit 65
