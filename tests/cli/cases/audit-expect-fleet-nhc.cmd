audit --sysfs build/fixtures/epyc-gen4 --pci-ids tests/fixtures/pci.ids --format nhc --expect tests/cli/data/expect-epyc
# exit 1
