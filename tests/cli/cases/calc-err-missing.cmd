calc pcie --width 16
# exit 64
