plan --server sys-221ge-nr --gpu h100-pcie --gpus-per-server 4 --model llama-3-70b --frontend-slot 7 --json
