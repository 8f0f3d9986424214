accept --example=training --script
