cluster --nodes 4 --gpus-per-node 2 --nics-per-node 2 --nic bcm957508-p2100g --no-oob --frontend off
