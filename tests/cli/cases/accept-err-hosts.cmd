accept --example=training --hosts 'gpu01,gpu;02'
# exit 64
