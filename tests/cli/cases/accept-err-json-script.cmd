-j accept --example=training --script
# exit 64
