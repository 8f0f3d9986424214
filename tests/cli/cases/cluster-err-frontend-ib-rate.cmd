cluster --nodes 16 --frontend-gbps HDR
# exit 64
