calc load --size 70B --precision int4 --link 25G -j
