calc link --speed 25GB --proto roce
# exit 64
