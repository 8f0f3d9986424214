calc pcie --gen 3 --assume mps=7
# exit 64
