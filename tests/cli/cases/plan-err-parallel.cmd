plan --example=training --parallel zero9
# exit 64
