plan --server r740
