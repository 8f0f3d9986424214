# stdin: printf "{\"server\": \"%s\"}" "$(head -c 200000 /dev/zero | tr "\\0" x)"
plan --spec -
# exit 65
