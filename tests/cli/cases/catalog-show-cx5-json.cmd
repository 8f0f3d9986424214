catalog show MCX556A-ECAT -p -j
