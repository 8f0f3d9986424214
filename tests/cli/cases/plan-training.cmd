plan --example=training
# exit 1
