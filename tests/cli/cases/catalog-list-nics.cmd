catalog list nics
