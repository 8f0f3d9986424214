audit --bogus
# exit 64
