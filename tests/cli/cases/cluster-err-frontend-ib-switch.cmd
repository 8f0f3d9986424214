cluster --nodes 16 --frontend-switch qm9700
# exit 64
