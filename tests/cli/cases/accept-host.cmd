accept --sysfs build/fixtures/hgx-h100
