accept --sysfs build/fixtures/hgx-h100 --hosts 'gpu[07-08]' --read --script
