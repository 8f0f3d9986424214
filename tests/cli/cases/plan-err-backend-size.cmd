plan --example=training --backend-size fast
# exit 64
