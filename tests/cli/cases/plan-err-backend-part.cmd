plan --example=training --backend-nic MCX9
