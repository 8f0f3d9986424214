# stdin: printf "hello\\n"
fleet -
# exit 65
