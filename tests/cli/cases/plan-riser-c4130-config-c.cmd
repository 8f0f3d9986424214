# the C4130's configuration C has x8 rear slots: a 100G card there is capped by its slot (R6 names configuration G as the other choice)
plan --server c4130 --gpu v100-pcie-32gb --gpus-per-server 4 --servers 2 --workload training --model llama-3-8b --riser-config c
# exit 1
