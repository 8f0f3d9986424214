cluster --server dgx-b300 --nodes 72
