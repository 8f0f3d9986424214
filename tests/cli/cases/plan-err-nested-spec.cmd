# stdin: head -c 3000 /dev/zero | tr "\\0" "["
plan --spec -
# exit 65
