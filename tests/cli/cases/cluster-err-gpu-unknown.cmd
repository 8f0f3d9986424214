cluster --nodes 4 --gpu nosuchgpu --nic pollara-400
# exit 66
