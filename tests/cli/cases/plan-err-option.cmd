plan --servrs 2
# exit 64
