plan --server xe9680
