-o id,bogus catalog list nics
# exit 64
