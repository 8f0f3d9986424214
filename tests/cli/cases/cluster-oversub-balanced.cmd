cluster --nodes 64 --gpus-per-node 8 --nic-gbps 400 --radix 64 --oversubscription 3 --frontend off --oob off
