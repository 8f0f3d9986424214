# stdin: printf '{"start": {"test_start": {"duration": 10}}, "end": {"sum_sent": {"bits_per_second": 1e+308}}}\n'
verify --link 400G -
# exit 65
