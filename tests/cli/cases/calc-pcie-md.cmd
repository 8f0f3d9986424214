calc pcie --gen 3 --width 16 --mps 512 --assume read_cpl=64 --format md
