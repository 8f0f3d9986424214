calc pcie --slot gen6x16
