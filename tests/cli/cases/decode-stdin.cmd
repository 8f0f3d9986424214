-j decode --rules -
# exit 65
