--raw --noheadings plan --example=training
# exit 1
