cluster --server dgx-h100 --nodes 32 --switch qm9700
