plan --example=training --backend-nic mcx354a-fcbt --fabric infiniband
# exit 1
