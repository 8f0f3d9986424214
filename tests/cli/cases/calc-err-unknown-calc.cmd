calc pcei
# exit 64
