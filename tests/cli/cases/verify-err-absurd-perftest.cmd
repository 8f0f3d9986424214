# stdin: printf ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n 65536          5000        97.2               99999999999999999999999   0.18\n'
verify --link 400G -
# exit 65
