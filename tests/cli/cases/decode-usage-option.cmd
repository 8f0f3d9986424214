decode --bogus MCX4121A-ACAT
# exit 64
