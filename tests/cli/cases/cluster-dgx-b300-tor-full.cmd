# four 10U DGX B300s leave 2U of a 42U rack: the 4U Q3400 leaf stands in a network rack
cluster --server dgx-b300 --nodes 8
