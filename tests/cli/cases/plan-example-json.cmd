plan --example -j -p
