cluster --nodes 16 --no-rail-optimized --frontend-links 1 --frontend-gbps 100 --no-oob
