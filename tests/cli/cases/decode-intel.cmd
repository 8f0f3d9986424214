decode --rules E810-XXVDA2
