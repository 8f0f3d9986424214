# an NCCL XML whose one <pci> has a bad busid: the error names the element and its line, not "no lspci listing found"
audit --dump tests/fixtures/dumps/xml/nccl-bad-only.xml
# exit 65
