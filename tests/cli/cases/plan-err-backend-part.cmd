plan --example=training --backend-nic MCX9
# exit 2
