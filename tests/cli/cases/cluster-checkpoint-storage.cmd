cluster --nodes 32 --storage-nodes 8 --checkpoint-tb 5.682 --checkpoint-stall 10
