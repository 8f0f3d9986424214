calc link --speed 100GbE --proto ib
# exit 64
