decode --rules MCX713104AS-ADAT
