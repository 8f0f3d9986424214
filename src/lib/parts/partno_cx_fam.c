/*
 * partno_cx_fam.c - the ConnectX families (struct cx_family, partno_int.h):
 * each generation's name, chip PCI ID and fastest port, the letters its
 * OPNs use, and its driver. A table only: the OPN readers (partno_cx*.c)
 * read it, and nothing here reads an OPN.
 */
#include <stddef.h>

#include "parts/partno_int.h"

/* The chips' PCI IDs and fastest ports: data/ids/pci.txt, via tools/idgen.c. */
#define NICFIT_PCIID_MACROS_ONLY
#include "pciids_table.h"

#define CHIP(m) NICFIT_PCIID_15B3_##m, NICFIT_PCIID_15B3_##m##_GBPS

const struct cx_family nicfit__cx_fam[FAM_COUNT] = {
	[FAM_CX3] = { "ConnectX-3", CHIP(CONNECTX_3), "QTF", "C", "mlx4_core" },
	[FAM_CX3PRO] = { "ConnectX-3 Pro", CHIP(CONNECTX_3_PRO), "QTF", "C", "mlx4_core" },
	[FAM_CX4] = { "ConnectX-4", CHIP(CONNECTX_4), "FE", "C", "mlx5_core" },
	[FAM_CX4LX] = { "ConnectX-4 Lx", CHIP(CONNECTX_4_LX), "", "C", "mlx5_core" },
	[FAM_CX5] = { "ConnectX-5", CHIP(CONNECTX_5), "FE", "C", "mlx5_core" },
	[FAM_CX5EX] = { "ConnectX-5 Ex", CHIP(CONNECTX_5_EX), "FE", "D", "mlx5_core" },
	[FAM_CX6] = { "ConnectX-6", CHIP(CONNECTX_6), "EH", "CDF", "mlx5_core" },
	[FAM_CX6DX] = { "ConnectX-6 Dx", CHIP(CONNECTX_6_DX), "", "CD", "mlx5_core" },
	[FAM_CX6LX] = { "ConnectX-6 Lx", CHIP(CONNECTX_6_LX), "", "CD", "mlx5_core" },
	/* data/ids/pci.txt has no row for it: the PCI ID stays unknown */
	[FAM_CX6DE] = { "ConnectX-6 DE", 0, 200, "EH", "D", "mlx5_core" },
	[FAM_CX7] = { "ConnectX-7", CHIP(CONNECTX_7), "HN", "DE", "mlx5_core" },
};
