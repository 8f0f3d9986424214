cluster --nodes 4 --gpus-per-node 8 --nics-per-node 4 --nic bcm957608-p2200gqf00 --nic-ports 2 --no-oob --no-frontend
