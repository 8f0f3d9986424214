accept --example=training --nodes 3
# exit 64
