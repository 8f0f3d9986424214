calc pcie --gen 3 --width 16 --format md
# exit 64
