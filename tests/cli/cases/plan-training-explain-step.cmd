plan --example=training --explain --parallel zero3 --batch-tokens 65536
# exit 1
