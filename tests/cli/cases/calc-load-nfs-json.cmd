calc load --size 40GiB --link 25GbE --storage-gbps 8 --json
