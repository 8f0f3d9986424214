plan --example=training --format md
