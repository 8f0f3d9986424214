plan --server dgx-h100 --servers 32 --model llama-3.1-405b --workload training --checkpoint-every 30 --checkpoint-stall 2 --checkpoint-async
