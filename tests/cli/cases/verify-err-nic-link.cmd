verify --nic MCX75310AAS-NEAT --link 100G tests/fixtures/verify/nccl-899-gdr-no-module.txt
# exit 64
