plan --example=training --format svg
# exit 1
