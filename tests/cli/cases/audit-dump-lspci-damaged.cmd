# lspci values no lspci prints (a negative speed and width, an exponent, x99999, a NUMA node past any machine) are read problems naming FILE:LINE, not dropped into a clean audit; the GPU's x0 (link down) stays a quiet unknown
audit --dump tests/fixtures/dumps/written/lspci-damaged.txt
