plan --example=capped
# exit 1
