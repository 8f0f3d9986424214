plan --example=training --json --pretty
