accept --sysfs build/fixtures/hgx-h100 --servers 4
# exit 64
