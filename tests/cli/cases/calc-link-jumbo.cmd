calc link --speed 25G --mtu 9000
