# the VPD name and part hold the card's bytes (\u001b, \u0007, one backslash), not lspci's escapes
audit --dump tests/fixtures/dumps/written/lspci-vpd-escaped.txt --format json
