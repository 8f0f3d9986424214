plan --from-host --sysfs build/fixtures/kvm-vm --workload training
# exit 65
