cluster --nodes 64 --rail-optimized
