plan --example=training
