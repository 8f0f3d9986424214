# a second OEM MI3xx server: the Gigabyte G893-ZX1-AAX2 (ServeTheHome's reading of its block diagram: four PEX89104 switches, two GPUs and their NICs on each), 16 servers of 8 x MI325X with a Pollara 400 per GPU: 8 PIX pairs, RCCL advice
plan --server g893-zx1-aax2 --servers 16 --backend-nic pollara-400 --switch z9864f-on --model llama-3.1-405b --workload training
# exit 1
