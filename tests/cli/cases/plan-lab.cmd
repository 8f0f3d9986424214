plan --example=lab
