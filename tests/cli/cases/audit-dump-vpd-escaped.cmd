# lspci escapes control bytes in VPD (\xHH, a backslash doubled): read back to the bytes, escaped once on output
audit --dump tests/fixtures/dumps/written/lspci-vpd-escaped.txt
