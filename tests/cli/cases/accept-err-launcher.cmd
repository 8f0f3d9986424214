accept --example=training --launcher pdsh
# exit 64
