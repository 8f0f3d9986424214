/*
 * dump_join.c - an RDMA device placed on its PCI function by the cells of
 * `nvidia-smi topo -m`.
 *
 * The matrix's NIC legend names each column's RDMA device ("NIC0: mlx5_0"),
 * and the column's cells give the path class from every GPU to that
 * device's function: PIX, PXB, PHB, NODE, SYS (SOC and PHB in the drivers
 * before NODE existed). The lspci tree gives the same classes for every
 * function (host/topo_path.c). A NIC function whose classes to all the
 * matrix's GPUs are those of the column is the device's function; when
 * exactly one function of the tree fits, that is evidence, not a guess.
 *
 * The functions of one card sit under the same port, so a dual-port card's
 * two functions fit the same column alike. When k columns read alike and k
 * functions of one card fit them, the card is known and its functions are
 * taken in the order of the names' numbers, the order the driver probes a
 * card's functions in (mlx5_ib; nvidia-smi lists them so too). Anything
 * else (candidates on several cards, counts that differ, no GPU whose
 * function is known) places nothing, and the build falls back to order.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pciids_int.h"
#include "dump/dump_int.h"

#define JOIN_MAX_CAND 16

/* The PCI vendor an RDMA driver's device names imply, 0 for any. */
static unsigned name_vendor(const char *name)
{
	static const struct {
		const char *prefix;
		unsigned vendor;
	} v[] = {
		{ "mlx5_", 0x15b3 }, { "mlx4_", 0x15b3 }, { "bnxt_re", 0x14e4 },
		{ "ionic", 0x1dd8 }, { "irdma", 0x8086 }, { "qedr", 0x1077 },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strncmp(name, v[i].prefix, strlen(v[i].prefix)))
			return v[i].vendor;
	return 0;
}

/* The built-in table's flags for a function lspci -tv named without a class, else 0. */
static unsigned id_flags(const struct nicfit_pcidev *p)
{
	const struct nicfit_pci_id *id;

	if (p->class_code || !(p->have & NICFIT_HAVE_IDS))
		return 0;
	id = nicfit__pci_id_find(p->vendor, p->device);
	return id ? id->flags : 0;
}

int nicfit__dump_nic_fn(const struct nicfit_pcidev *p, unsigned vendor)
{
	return p->physfn < 0 && (!vendor || p->vendor == vendor) &&
	       ((p->class_code >> 16) == 0x02 || (p->class_code >> 8) == 0x0c06 ||
		(id_flags(p) & NICFIT_PCIID_NIC));
}

int nicfit__dump_gpu_fn(const struct nicfit_pcidev *p)
{
	return p->physfn < 0 && (p->kind == NICFIT_DEV_GPU || (p->class_code >> 16) == 0x03 ||
				 (p->class_code >> 8) == 0x1200 || (id_flags(p) & NICFIT_PCIID_GPU));
}

/* Whether a matrix cell can be the class the tree gives. */
static int cell_fits(const char *cell, enum nicfit_path p, int known, int old)
{
	if (!known) /* different host bridges, NUMA unknown: NODE or SYS */
		return !strcmp(cell, "NODE") || !strcmp(cell, "SYS") || !strcmp(cell, "SOC") ||
		       (old && !strcmp(cell, "PHB"));
	if (!strcmp(cell, nicfit_path_name(p)))
		return 1;
	if (!strcmp(cell, "SOC"))
		return p == NICFIT_PATH_SYS;
	return old && !strcmp(cell, "PHB") && p == NICFIT_PATH_NODE;
}

static int old_legend(const struct dump_smi *m)
{
	int g, k;

	for (g = 0; g < m->ngpus; g++)
		for (k = 0; k < m->nnics; k++)
			if (!strcmp(m->cell[g][k], "SOC"))
				return 1;
	return 0;
}

/*
 * Whether function pci fits column k: every GPU row whose function is
 * known has the tree's class in its cell, and at least one was compared.
 */
static int fits_column(const struct nicfit_dump *d, const struct nicfit_topo *t, int k, int pci)
{
	const struct dump_smi *m = &d->smi;
	int g, compared = 0, old = old_legend(m);

	for (g = 0; g < m->ngpus; g++) {
		int as, known, lca, gp;
		enum nicfit_path p;

		if (!m->row_line[g] || !m->cell[g][k][0])
			continue;
		gp = nicfit__dump_gpu_pci(d, t, g, &as);
		if (gp < 0)
			continue;
		p = nicfit_topo_path(t, gp, pci, &known, &lca);
		if (!cell_fits(m->cell[g][k], p, known, old))
			return 0;
		compared++;
	}
	return compared > 0;
}

/* Whether columns a and b have the same cell in every GPU row. */
static int same_column(const struct dump_smi *m, int a, int b)
{
	int g;

	for (g = 0; g < m->ngpus; g++)
		if (m->row_line[g] && strcmp(m->cell[g][a], m->cell[g][b]))
			return 0;
	return 1;
}

/* The number at the end of a device name (mlx5_12 -> 12), -1 none. */
static long name_number(const char *name)
{
	size_t n = strlen(name), i = n;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i == n || n - i > 6)
		return -1;
	return strtol(name + i, NULL, 10);
}

/* Whether name b sorts before name a: same prefix, smaller number. */
static int name_before(const char *b, const char *a)
{
	long na = name_number(a), nb = name_number(b);
	size_t pa = strlen(a), pb = strlen(b);

	while (pa > 0 && a[pa - 1] >= '0' && a[pa - 1] <= '9')
		pa--;
	while (pb > 0 && b[pb - 1] >= '0' && b[pb - 1] <= '9')
		pb--;
	if (na < 0 || nb < 0 || pa != pb || strncmp(a, b, pa))
		return strcmp(b, a) < 0;
	return nb < na;
}

static int one_card(const struct nicfit_topo *t, const int *cand, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (t->pci[cand[i]].domain != t->pci[cand[0]].domain ||
		    t->pci[cand[i]].bus != t->pci[cand[0]].bus ||
		    t->pci[cand[i]].dev != t->pci[cand[0]].dev)
			return 0;
	return 1;
}

int nicfit__dump_matrix_pci(const struct nicfit_dump *d, const struct nicfit_topo *t,
			    const char *name)
{
	const struct dump_smi *m = &d->smi;
	int cand[JOIN_MAX_CAND], n = 0, k, j, i, group = 0, rank = 0;
	unsigned vendor = name_vendor(name);

	if (!m->present || !name[0])
		return -1;
	for (k = 0; k < m->nnics && strcmp(m->nic[k], name); k++)
		;
	if (k == m->nnics)
		return -1;
	for (i = 0; i < t->npci; i++)
		if (nicfit__dump_nic_fn(&t->pci[i], vendor) && fits_column(d, t, k, i)) {
			if (n == JOIN_MAX_CAND)
				return -1;
			cand[n++] = i;
		}
	if (n <= 1)
		return n ? cand[0] : -1;
	if (!one_card(t, cand, n))
		return -1;
	for (j = 0; j < m->nnics; j++) {
		if (!same_column(m, j, k) || name_vendor(m->nic[j]) != vendor)
			continue;
		group++;
		rank += j != k && name_before(m->nic[j], name);
	}
	return group == n ? cand[rank] : -1;
}

int nicfit__dump_gpu_pci(const struct nicfit_dump *d, const struct nicfit_topo *t, int k,
			 int *assumed)
{
	int i, seen = 0;

	*assumed = 0;
	if (d->gpu_bdf[k][0])
		return nicfit_topo_find(t, d->gpu_bdf[k]);
	/* NVML numbers GPUs in PCI bus order unless told otherwise */
	*assumed = 1;
	for (i = 0; i < t->npci; i++)
		if (t->pci[i].vendor == 0x10de && nicfit__dump_gpu_fn(&t->pci[i]) &&
		    seen++ == k)
			return i;
	return -1;
}
