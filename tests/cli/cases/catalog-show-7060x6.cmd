catalog show dcs-7060x6-64pe
