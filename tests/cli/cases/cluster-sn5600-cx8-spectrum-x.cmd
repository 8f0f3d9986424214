cluster --nodes 32 --nic 900-9x81e-00ex-st0 --switch sn5600 --no-frontend --no-oob
