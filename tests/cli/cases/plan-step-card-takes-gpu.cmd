plan --server sys-221ge-nr --servers 2 --gpu h100-pcie --gpus-per-server 4 --model llama-3.1-70b --workload training --backend-nic 900-9d3b6-00cn-ab0 --explain
# exit 2
