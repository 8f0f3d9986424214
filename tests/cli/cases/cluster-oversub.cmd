cluster --nodes 96 --oversubscription 3:1 --no-frontend --no-oob
