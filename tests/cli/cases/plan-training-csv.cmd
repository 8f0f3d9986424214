plan --example=training --format csv
# exit 1
