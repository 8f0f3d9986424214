-o qty,part --format csv plan --example=training
# exit 1
