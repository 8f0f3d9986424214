catalog show r740xd
