plan --example=training --format svg
