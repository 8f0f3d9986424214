calc link --speed 10G
