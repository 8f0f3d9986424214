plan --example=training --json --pretty
# exit 1
