decode --rules MCX653105A-HDAT
