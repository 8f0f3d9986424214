calc pcie --gen 3 --width 16
