cluster --nodes 512 --no-frontend --no-oob
