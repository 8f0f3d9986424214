cluster --nodes 8 --gpus-per-node 2 --nics-per-node 1 --nic-gbps 25 --switch sn2100 --frontend off --oob off
