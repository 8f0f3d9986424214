plan --example=lab
# exit 1
