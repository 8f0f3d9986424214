decode --rules MCX556M-ECAT-S25
