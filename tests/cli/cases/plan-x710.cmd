plan --example=x710
