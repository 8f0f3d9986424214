verify tests/fixtures/verify/azure-ndv5-topo.xml
