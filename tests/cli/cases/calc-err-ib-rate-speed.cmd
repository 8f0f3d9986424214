calc link --speed 25G --proto ib
# exit 64
