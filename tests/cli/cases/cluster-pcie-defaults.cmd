cluster --nodes 8 --gpu l40s --no-oob
