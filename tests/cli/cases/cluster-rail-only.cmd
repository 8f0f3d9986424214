cluster --nodes 32 --rail-only --frontend-links 2
