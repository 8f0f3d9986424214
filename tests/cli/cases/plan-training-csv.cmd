plan --example=training --format csv
