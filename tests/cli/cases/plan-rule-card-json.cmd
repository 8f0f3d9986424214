plan --example=training --backend-nic MCX623106AE-CDAT -j -p
# exit 1
