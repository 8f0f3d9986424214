-o bogus catalog list nics
# exit 64
