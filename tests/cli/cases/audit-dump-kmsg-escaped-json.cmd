# the module errors' text holds the bytes (\u001b, \u007f, one backslash), not the kernel log's \xHH escapes
audit --dump tests/fixtures/dumps/written/kmsg-escaped.txt --format json
# exit 1
