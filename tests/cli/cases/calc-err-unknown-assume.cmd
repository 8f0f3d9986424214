calc pcie --gen 3 --assume foo=1
# exit 64
