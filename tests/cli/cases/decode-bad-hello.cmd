decode hello
# exit 65
