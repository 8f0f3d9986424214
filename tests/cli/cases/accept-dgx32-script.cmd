accept --server dgx-h100 --servers 32 --gpu h100-sxm5-80gb --gpus-per-server 8 --model llama-3-70b --workload training --fabric infiniband --launcher srun --hosts 'dgx[001-032]' --script
