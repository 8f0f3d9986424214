plan --example=x710
# exit 2
