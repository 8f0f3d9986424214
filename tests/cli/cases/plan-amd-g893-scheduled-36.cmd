# plan on a scheduled fabric asked for by name: 36 G893 servers on 7700R4C-38PE leaves, whose spine tier is 7720R4-128PE cell switches; RoCE settings on the leaves' server ports only
plan --server g893-zx1-aax2 --servers 36 --backend-nic pollara-400 --switch arista-7700r4c-38pe --model llama-3.1-405b --workload training
# exit 1
