plan --server r650 --gpu a2 --gpus-per-server 3 --frontend-nic bcm957414n4140c
