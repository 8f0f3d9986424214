calc pcie --gen 3 --widht 16
# exit 64
