plan --server sr680a-v3
