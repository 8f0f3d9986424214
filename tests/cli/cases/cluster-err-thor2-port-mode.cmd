cluster --nodes 4 --nic bcm957608-p2200gqf00 --nic-ports 2 --nic-gbps 400
# exit 64
