plan --example=training --format md
# exit 1
