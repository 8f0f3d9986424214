calc link --speed FDR --proto tcp
# exit 64
