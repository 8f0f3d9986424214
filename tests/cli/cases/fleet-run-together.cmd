# stdin: d=$(tr -d '\n' < tests/fleet/audits/kvm-vm.json); printf 'h1: %sh2: %s' "$d" "$d"
fleet -
