-o bogus calc pcie --gen 4 --width 16
# exit 64
