/*
 * topo_path.c - the path class between two PCI functions of the host
 * model, as `nvidia-smi topo -m` prints it and NCCL's topology search
 * uses it (docs/reference/topology.md 2): a fact of the topology, read
 * by the audit (GPU-NIC pairs), the dump reader's comparison with a
 * pasted matrix, and the planner's rendering of slot pairs.
 */
#include "nicfit/topo.h"

/*
 * Two devices below one common bridge are PIX when each is at most
 * PIX_MAX_BELOW functions under it (a switch's downstream port, then the
 * device): they share a single PCIe switch. Deeper means several switches
 * (PXB), nvidia-smi's legend.
 */
#define PIX_MAX_BELOW 2

const char *nicfit_path_name(enum nicfit_path p)
{
	static const char *const n[] = { "PIX", "PXB", "PHB", "NODE", "SYS" };

	return p <= NICFIT_PATH_SYS ? n[p] : "SYS";
}

enum nicfit_path nicfit_topo_path(const struct nicfit_topo *t, int x, int y, int *known, int *lca)
{
	int cx[2 * NICFIT_TOPO_MAX_DEPTH], cy[2 * NICFIT_TOPO_MAX_DEPTH];
	int nx = nicfit_topo_chain(t, x, cx, (int)(sizeof(cx) / sizeof(cx[0])));
	int ny = nicfit_topo_chain(t, y, cy, (int)(sizeof(cy) / sizeof(cy[0])));
	int k = 0;

	*known = 1;
	*lca = -1;
	if (!nx || !ny)
		return NICFIT_PATH_SYS;
	if (t->pci[cx[0]].hostbridge != t->pci[cy[0]].hostbridge) {
		int a = nicfit_topo_numa_of(t, x), b = nicfit_topo_numa_of(t, y);

		if (a >= 0 && b >= 0)
			return a == b ? NICFIT_PATH_NODE : NICFIT_PATH_SYS;
		*known = 0;
		return NICFIT_PATH_NODE;
	}
	while (k < nx && k < ny && cx[k] == cy[k])
		k++;
	if (k == 0)
		return NICFIT_PATH_PHB;
	*lca = cx[k - 1];
	return nx - k <= PIX_MAX_BELOW && ny - k <= PIX_MAX_BELOW ? NICFIT_PATH_PIX
								   : NICFIT_PATH_PXB;
}
