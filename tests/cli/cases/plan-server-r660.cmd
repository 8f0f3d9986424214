plan --server r660 --gpu l4 --gpus-per-server 3 --frontend-nic bcm957414n4140c
