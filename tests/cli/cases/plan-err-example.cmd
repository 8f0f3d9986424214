plan --example=trainnig
# exit 64
