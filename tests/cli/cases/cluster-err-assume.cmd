cluster --nodes 4 --assume rack_pitch=1
# exit 64
