plan --example
