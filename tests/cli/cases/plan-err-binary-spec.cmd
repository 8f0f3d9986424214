# stdin: printf "\\001\\377\\376\\000{\\"server\\": 1}"
plan --spec -
# exit 65
