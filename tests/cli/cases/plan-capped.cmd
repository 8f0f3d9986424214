plan --example=capped
