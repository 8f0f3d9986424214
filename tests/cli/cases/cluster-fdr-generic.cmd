cluster --nodes 4 --nic-gbps FDR
