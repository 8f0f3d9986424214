help cluster
