plan --server c4140-m
