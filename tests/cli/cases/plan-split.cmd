plan --example=split
