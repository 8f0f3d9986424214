plan --example=gen4
# exit 1
