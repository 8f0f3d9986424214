# stdin: printf "hello\\n"
verify -
# exit 65
