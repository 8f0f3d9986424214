-j -o part,qty plan --example=training
# exit 1
