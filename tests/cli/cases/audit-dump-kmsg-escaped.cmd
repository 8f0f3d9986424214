# kernel log lines escape bytes as \xHH (/dev/kmsg, dmesg): the interface name's ESC, DEL and backslash are read back to the bytes, escaped once on output
audit --dump tests/fixtures/dumps/written/kmsg-escaped.txt
# exit 1
