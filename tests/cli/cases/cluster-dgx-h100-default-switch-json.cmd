cluster --server dgx-h100 --nodes 32 --format json
