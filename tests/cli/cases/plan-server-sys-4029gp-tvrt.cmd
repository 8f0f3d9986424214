plan --server sys-4029gp-tvrt
