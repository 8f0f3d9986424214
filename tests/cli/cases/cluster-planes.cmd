cluster --gpus 4096 --planes 2 --rail-optimized --no-frontend --no-oob
