calc link --speed 25gbps --proto roce
# exit 64
