plan --server xe8545
