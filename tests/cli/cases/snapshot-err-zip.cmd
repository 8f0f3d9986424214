snapshot --sysfs build/fixtures/kvm-vm /tmp/nicfit-golden-out.zip
# exit 64
