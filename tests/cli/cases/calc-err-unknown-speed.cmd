calc link --speed HDR200
# exit 64
