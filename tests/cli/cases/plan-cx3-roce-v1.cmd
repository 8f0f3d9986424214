plan --example=training --backend-nic mcx354a-fcbt
# exit 1
