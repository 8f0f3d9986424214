cluster --nodes 32 --gpus-per-node 8 --nic 900-9x81e-00ex-st0 --no-oob --format json
