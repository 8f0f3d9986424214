cluster --nodes 16 --oob-switch sb7800
# exit 64
