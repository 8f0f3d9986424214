plan --server generic-gen4 --servers 2 --workload training --backend-size traffic
