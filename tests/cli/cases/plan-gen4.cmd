plan --example=gen4
