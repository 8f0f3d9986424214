accept --example=inference
# exit 65
