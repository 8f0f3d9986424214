# stdin: printf '{"server":"r740xd","servers":2,"gpu":"a40","model":"llama-3-8b","workload":"training","parallel":"zero9"}'
plan --spec -
# exit 65
