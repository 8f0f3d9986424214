decode E810-CQDA2
