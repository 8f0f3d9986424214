# eight servers of 8 Gaudi 3 HL-338 PCIe cards: each card scales out over its own 4 x 200GbE (HCL's HLS3PCIE map), two to a QSFP112 cage: 16 cages a server, no NIC cards, HCCL and hccl_demo
plan --server generic-gaudi3-8pcie --gpu gaudi3-hl338 --gpus-per-server 8 --servers 8 --model llama-3.1-70b --workload training
