accept --example=training
