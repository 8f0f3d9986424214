plan --example --explain
