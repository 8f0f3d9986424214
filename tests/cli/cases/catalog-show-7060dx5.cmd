catalog show dcs-7060dx5-64s
