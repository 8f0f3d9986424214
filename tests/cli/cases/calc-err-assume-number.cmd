calc link --speed 100G --assume mtu=x
# exit 64
