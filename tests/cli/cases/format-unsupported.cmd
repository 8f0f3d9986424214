--format svg calc pcie --gen 3
# exit 64
