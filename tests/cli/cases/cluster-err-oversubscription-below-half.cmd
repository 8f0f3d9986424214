cluster --nodes 64 --oversubscription 0.4
# exit 64
