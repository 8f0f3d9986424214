# one server of 8 HL-338 cards trains over a switch: a top board joins only 4 cards (HCL's HLS3PCIE scale-up group), so its two groups meet on the cards' own scale-out ports
plan --server generic-gaudi3-8pcie --gpu gaudi3-hl338 --gpus-per-server 8 --servers 1 --model llama-3.1-8b --workload training
