plan --example=split
# exit 1
