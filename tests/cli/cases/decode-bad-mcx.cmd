decode MCX
# exit 65
