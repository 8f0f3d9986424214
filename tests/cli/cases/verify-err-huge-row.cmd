# stdin: printf '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n  1073741824     268435456     float     sum      -1   4517.3  237.69  445.68      0   4507.6  238.21  446.64      0\n  2147483648     536870912     float     sum      -1   9000.1   1e308   1e308      0   9001.0  238.59  447.36      0\n# Avg bus bandwidth    : 446.0\n'
verify --link NDR --nodes 2 -
# exit 65
