cluster --nodes 8 --rail-optimized --no-rail-optimized
# exit 64
