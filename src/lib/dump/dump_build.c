/*
 * dump_build.c - the host model from the dumps' records (see dump_int.h).
 *
 * The PCI tree is rebuilt as the kernel enumerated it: a function's parent
 * is the bridge of its domain whose secondary..subordinate range holds its
 * bus most narrowly (lspci -vvv "Bus:" lines, or the ranges lspci -t
 * draws); a function no bridge covers sits on a root bus, and each root
 * bus is a host bridge named as sysfs names it (pciDDDD:BB). A parent's
 * bus is always below its child's, so the tree has no cycle whatever the
 * text says, and adding functions in address order adds parents first.
 *
 * Each value the text gave is copied with its NICFIT_HAVE_* flag; nothing
 * is filled in that it did not give. NUMA nodes are those numactl -H or
 * lscpu list, with their CPUs, distances and sockets (dump_cpu.c), and
 * those lspci names (their CPUs unknown). The RDMA devices are the
 * NICs nvidia-smi lists and those of ibv_devinfo and ibdev2netdev, placed
 * on a function by address (ibdev2netdev -v) or by name (below).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pciids_int.h"
#include "dump/dump_int.h"
#include "nicfit/units.h"

#define PCI_VENDOR_MELLANOX 0x15b3
#define PCI_VENDOR_NVIDIA 0x10de

static int cmp_fn_key(const void *x, const void *y)
{
	const struct dump_fn_key *a = x, *b = y;
	int c = strcmp(a->bdf, b->bdf);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* Sort the functions by address once per change in their number. */
static int index_fns(const struct nicfit_dump *d, struct dump_fn_index *x)
{
	size_t i;

	if (x->n == d->nfns && x->fns == d->fns)
		return 0;
	if (d->nfns > x->alloc) {
		struct dump_fn_key *k = realloc(x->keys, d->nfns * sizeof(*k));

		if (!k)
			return -1;
		x->keys = k;
		x->alloc = d->nfns;
	}
	for (i = 0; i < d->nfns; i++) {
		x->keys[i].bdf = d->fns[i].bdf;
		x->keys[i].i = i;
	}
	qsort(x->keys, d->nfns, sizeof(*x->keys), cmp_fn_key);
	x->n = d->nfns;
	x->fns = d->fns;
	return 0;
}

/*
 * The first function listed with this address: a binary search of the
 * sorted index (a linear scan where it could not be built), so a lookup
 * per function keeps a dump's judgement linear in its functions.
 */
const struct dump_fn *nicfit__dump_find(const struct nicfit_dump *d, const char *bdf)
{
	struct dump_fn_index *x = d->by_bdf;
	size_t i, lo = 0, hi;

	if (!x || index_fns(d, x)) {
		for (i = 0; i < d->nfns; i++)
			if (!strcmp(d->fns[i].bdf, bdf))
				return &d->fns[i];
		return NULL;
	}
	hi = x->n;
	while (lo < hi) { /* the first key not below bdf */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(x->keys[mid].bdf, bdf) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->n && !strcmp(x->keys[lo].bdf, bdf) ? &d->fns[x->keys[lo].i] : NULL;
}

/*
 * The IDs of a name lspci -tv drew, through the built-in table: the
 * bracketed part of pci.ids's device name ("AD102GL [RTX 6000 Ada
 * Generation]"; each of "[L6000 / RTX 6000 Ada Generation]"'s names, as
 * older pci.ids files print it) under the vendor the name starts with.
 * Only a name the table holds once is taken.
 */
/*
 * Whether the rows give the judgement the same facts: kind (GPU, NIC, VF,
 * switch...), fastest port and RDMA. Their names are the same already.
 */
static int rows_alike(const struct nicfit_pci_id *const *row, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (row[i]->flags != row[0]->flags || row[i]->rdma != row[0]->rdma ||
		    row[i]->max_port_gbps != row[0]->max_port_gbps)
			return 0;
	return 1;
}

static void ids_of_name(struct dump_fn *f)
{
	size_t vl, n;
	unsigned v = nicfit__dump_vendor_of_name(f->name, &vl);
	const char *open = strrchr(f->name, '['), *close, *p;
	const struct nicfit_pci_id *row[4];

	n = strlen(f->name);
	if (!v || !open || open < f->name + vl || f->name[n - 1] != ']')
		return;
	close = f->name + n - 1;
	for (p = open + 1; p < close;) {
		const char *q = strstr(p, " / ");
		size_t len = q && q < close ? (size_t)(q - p) : (size_t)(close - p);
		int k = nicfit__pci_ids_by_name(v, p, len, row, 4);

		if (k > 4 || (k > 1 && !rows_alike(row, k))) {
			f->ids_alike = k; /* which of them is not known, and it matters */
		} else if (k) {
			f->vendor = row[0]->vendor;
			f->device = row[0]->device;
			f->have |= NICFIT_HAVE_IDS;
			f->ids_by_name = 1;
			f->ids_alike = k > 1 ? k : 0;
			return;
		}
		p += len + 3;
	}
}

/*
 * A function only lspci -t drew (no class, no IDs: -tv prints names) takes
 * them from a function of the same device (bus and slot) that a listing
 * described under the same name: the second port of a dual-port card whose
 * lspci -vvv was cut to function 0. Its NUMA node is its bus's: a bus hangs
 * off one host bridge. Nothing else is copied (its link is its own).
 */
static void fill_siblings(struct nicfit_dump *d)
{
	size_t i, k;

	for (i = 0; i < d->nfns; i++) {
		struct dump_fn *f = &d->fns[i];

		if (f->from_block || (f->have & (NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS)) || !f->name[0])
			continue;
		for (k = 0; k < d->nfns; k++) {
			const struct dump_fn *s = &d->fns[k];

			if (k == i || s->domain != f->domain || s->bus != f->bus || s->dev != f->dev ||
			    !(s->have & NICFIT_HAVE_CLASS) || strcmp(s->name, f->name))
				continue;
			f->class_code = s->class_code;
			f->vendor = s->vendor;
			f->device = s->device;
			f->have |= s->have & (NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS);
			f->is_vf = s->is_vf;
			if (f->numa < 0 && s->numa >= 0) {
				f->numa = s->numa;
				f->have |= NICFIT_HAVE_NUMA;
			}
			break;
		}
		if (k == d->nfns)
			ids_of_name(f);
	}
}

/* Whether bridge b holds bus (below it) more narrowly than the bridge best (-1: none). */
static int narrower(const struct nicfit_dump *d, const struct dump_fn *b, int best)
{
	return best < 0 || b->secondary > d->fns[best].secondary ||
	       (b->secondary == d->fns[best].secondary &&
		b->subordinate < d->fns[best].subordinate);
}

static int cmp_unsigned(const void *x, const void *y)
{
	unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;

	return (a > b) - (a < b);
}

/*
 * The table of each domain's buses and their narrowest bridge (struct
 * dump_fn_index), made once the functions no longer move: each bridge
 * marks the buses of its range above its own, in list order, so the
 * first of equally narrow bridges keeps a bus, as a scan in list order
 * would. Work: one pass, plus at most 256 marks a bridge.
 */
static int index_buses(const struct nicfit_dump *d, struct dump_fn_index *x)
{
	size_t k, j, nd = 0;
	int bus;

	if (x->bus_fns == d->fns && x->bus_n == d->nfns)
		return 0;
	free(x->dom);
	free(x->bus);
	x->dom = malloc((d->nfns ? d->nfns : 1) * sizeof(*x->dom));
	x->bus = NULL;
	x->bus_fns = NULL;
	if (!x->dom)
		return -1;
	for (k = 0; k < d->nfns; k++)
		if (d->fns[k].have & NICFIT_HAVE_SECBUS)
			x->dom[nd++] = d->fns[k].domain;
	qsort(x->dom, nd, sizeof(*x->dom), cmp_unsigned);
	for (k = 0, j = 0; k < nd; k++)
		if (!j || x->dom[k] != x->dom[j - 1])
			x->dom[j++] = x->dom[k];
	x->ndom = j;
	x->bus = malloc((j ? j : 1) * sizeof(*x->bus));
	if (!x->bus)
		return -1;
	memset(x->bus, 0xff, (j ? j : 1) * sizeof(*x->bus)); /* -1: no bridge */
	for (k = 0; k < d->nfns; k++) {
		const struct dump_fn *b = &d->fns[k];
		const unsigned *dm;

		if (!(b->have & NICFIT_HAVE_SECBUS) || b->bus >= 256)
			continue; /* no bus below it has a number */
		dm = bsearch(&b->domain, x->dom, x->ndom, sizeof(*x->dom), cmp_unsigned);
		for (bus = b->secondary > (int)b->bus ? b->secondary : (int)b->bus + 1;
		     dm && bus <= b->subordinate && bus < 256; bus++)
			if (narrower(d, b, x->bus[dm - x->dom][bus]))
				x->bus[dm - x->dom][bus] = (int)k;
	}
	x->bus_fns = d->fns;
	x->bus_n = d->nfns;
	return 0;
}

/* The bridge whose bus range holds f's bus (the narrowest), or -1. */
static int bus_parent(const struct nicfit_dump *d, size_t i)
{
	const struct dump_fn *f = &d->fns[i];
	struct dump_fn_index *x = d->by_bdf;
	const unsigned *dom;
	size_t k;
	int best = -1;

	if (x && f->bus < 256 && !index_buses(d, x)) {
		dom = bsearch(&f->domain, x->dom, x->ndom, sizeof(*x->dom), cmp_unsigned);
		return dom ? x->bus[dom - x->dom][f->bus] : -1;
	}
	for (k = 0; k < d->nfns; k++) { /* no table: a scan in list order */
		const struct dump_fn *b = &d->fns[k];

		if (k == i || b->domain != f->domain || !(b->have & NICFIT_HAVE_SECBUS) ||
		    b->bus >= f->bus || (int)f->bus < b->secondary || (int)f->bus > b->subordinate)
			continue;
		if (narrower(d, b, best))
			best = (int)k;
	}
	return best;
}

/*
 * Whether f's place in the tree is NCCL's nesting. NCCL's topology XML
 * leaves out switch downstream ports, so where the same paste also holds
 * lspci's bridges with bus ranges, those place f instead: the more detailed
 * tree wins. hwloc's nesting keeps every bridge and is taken as it is.
 */
int nicfit__dump_nccl_placed(const struct nicfit_dump *d, const struct dump_fn *f)
{
	return f->parent[0] && f->parent_nccl && bus_parent(d, (size_t)(f - d->fns)) < 0;
}

/* The parent bridge of f among the records, or -1. */
static int parent_of(const struct nicfit_dump *d, size_t i)
{
	const struct dump_fn *f = &d->fns[i], *p;

	if (f->parent[0] && (!f->parent_nccl || nicfit__dump_nccl_placed(d, f))) {
		/* an XML document nests a function in its parent (one function an address) */
		p = nicfit__dump_find(d, f->parent);
		if (p && p != f)
			return (int)(p - d->fns);
	}
	return bus_parent(d, i);
}

static int by_addr(const void *x, const void *y)
{
	const struct dump_fn *a = x, *b = y;

	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return a->fn < b->fn ? -1 : a->fn > b->fn;
}

static int gen_of(double gts)
{
	static const double g[] = { 2.5, 5, 8, 16, 32, 64 };
	int i;

	for (i = 0; i < 6; i++)
		if (gts > g[i] - 0.01 && gts < g[i] + 0.01)
			return i + 1;
	return 0;
}

static void copy_link(struct nicfit_pcidev *p, const struct dump_fn *f)
{
	if (f->sta_gts > 0) {
		p->cur_gts = f->sta_gts;
		p->have |= NICFIT_HAVE_CUR_SPEED;
		snprintf(p->cur_speed_text, sizeof(p->cur_speed_text), "%.1f GT/s PCIe", f->sta_gts);
	}
	if (f->cap_gts > 0) {
		p->max_gts = f->cap_gts;
		p->have |= NICFIT_HAVE_MAX_SPEED;
		snprintf(p->max_speed_text, sizeof(p->max_speed_text), "%.1f GT/s PCIe", f->cap_gts);
	}
	if (f->sta_w > 0) {
		p->cur_width = f->sta_w;
		p->have |= NICFIT_HAVE_CUR_WIDTH;
	}
	if (f->cap_w > 0) {
		p->max_width = f->cap_w;
		p->have |= NICFIT_HAVE_MAX_WIDTH;
	}
	if (f->sta_gts > 0 || f->cap_gts > 0 || f->sta_w > 0 || f->cap_w > 0)
		p->have |= NICFIT_HAVE_LINK_FILES;
	p->lnksta_gen = gen_of(f->sta_gts);
	p->lnksta_width = f->sta_w;
	p->lnkcap_gen = gen_of(f->cap_gts);
	p->lnkcap_width = f->cap_w;
}

/* Copy a record into the function the model made for it. */
static void copy_fn(struct nicfit_pcidev *p, const struct dump_fn *f, int denied)
{
	p->have |= f->have & (NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS | NICFIT_HAVE_SUBSYS |
			      NICFIT_HAVE_NUMA | NICFIT_HAVE_SECBUS);
	p->class_code = f->class_code;
	p->vendor = f->vendor;
	p->device = f->device;
	p->subvendor = f->subvendor;
	p->subdevice = f->subdevice;
	p->numa_node = f->numa;
	p->secondary_bus = f->secondary;
	p->in_bus_list = 1;
	snprintf(p->driver, sizeof(p->driver), "%s", f->driver);
	snprintf(p->slot, sizeof(p->slot), "%s", f->slot);
	p->sriov_totalvfs = f->sriov_total;
	p->sriov_numvfs = f->sriov_num;
	copy_link(p, f);
	if (f->cfg_pcie && f->port_type != NICFIT_PORT_UNKNOWN) {
		p->port_type = f->port_type;
		p->port_type_from_config = 1;
	}
	p->cfg_pcie = f->cfg_pcie;
	p->cfg_len = f->caps_denied ? 64 : f->cfg_pcie ? 256 : 0;
	p->mps = f->mps;
	p->mps_cap = f->mps_cap;
	p->mrrs = f->mrrs;
	p->acs = f->acs;
	p->acs_ctrl = f->acs_ctrl;
	if (f->vpd_part[0] || f->vpd_name[0]) {
		p->vpd_state = NICFIT_VPD_READ;
		snprintf(p->vpd_part, sizeof(p->vpd_part), "%s", f->vpd_part);
		snprintf(p->vpd_name, sizeof(p->vpd_name), "%s", f->vpd_name);
	} else if (denied && (f->class_code >> 16) == 0x02) {
		p->vpd_state = NICFIT_VPD_UNREADABLE;
	}
	p->probed = 1;
}

/* The host bridge of the root bus (dom, bus), made when new; -1 out of memory. */
static int hostbridge(struct nicfit_topo *t, unsigned dom, unsigned bus)
{
	char name[32];
	int i;

	snprintf(name, sizeof(name), "pci%04x:%02x", dom, bus);
	for (i = 0; i < t->nhb; i++)
		if (!strcmp(t->hb[i].name, name))
			return i;
	return nicfit_topo_add_hostbridge(t, name, -1);
}

/* A VF's physical function: the SR-IOV function before it on its bus, else the first function there. */
static int physfn_of(const struct nicfit_topo *t, const struct dump_fn *fns, int i)
{
	int k, first = -1;

	for (k = i - 1; k >= 0; k--) {
		if (t->pci[k].domain != t->pci[i].domain || t->pci[k].bus != t->pci[i].bus)
			break;
		if (fns[k].is_vf)
			continue;
		if (t->pci[k].sriov_totalvfs > 0)
			return k;
		first = k;
	}
	return first;
}

int nicfit__dump_name_pci(const struct nicfit_topo *t, const char *name)
{
	const char *e;
	long want, seen = 0;
	int i;

	/* mlx5_N: mlx5_ib names its devices in the order it probes the functions, PCI order */
	if (strncmp(name, "mlx5_", 5) || nicfit_scan_dec(name + 5, 0, NICFIT_TOPO_MAX_PCI, &want,
							&e) != NICFIT_DEC_OK || *e)
		return -1;
	for (i = 0; i < t->npci; i++) {
		const struct nicfit_pcidev *p = &t->pci[i];

		if (!nicfit__dump_nic_fn(p, PCI_VENDOR_MELLANOX))
			continue;
		if (seen++ == want)
			return i;
	}
	return -1;
}

/* The RDMA device of that name in the model, added when new; -1 out of memory or unplaced. */
static int rdma_dev(struct nicfit_topo *t, const char *name, int pci)
{
	int i;

	for (i = 0; i < t->nrdma; i++)
		if (!strcmp(t->rdma[i].name, name))
			return i;
	return pci >= 0 ? nicfit_topo_add_rdma(t, name, pci) : -1;
}

/* The function ethtool -i's bus-info gives one of x's interfaces, or -1. */
static int by_ethtool(const struct nicfit_dump *d, const struct nicfit_topo *t,
		      const struct dump_rdma *x)
{
	size_t i;
	int k;

	for (k = 0; k < NICFIT_TOPO_MAX_PORTS; k++)
		for (i = 0; x->netdev[k][0] && i < d->nnet; i++)
			if (d->net[i].bdf[0] && !strcmp(d->net[i].name, x->netdev[k]))
				return nicfit_topo_find(t, d->net[i].bdf);
	return -1;
}

/* Whether another device than x was tied to function pci. */
static int taken(const struct nicfit_dump *d, const struct dump_rdma *x, const char *bdf)
{
	size_t i;

	for (i = 0; i < d->nrdma; i++)
		if (&d->rdma[i] != x && d->rdma[i].join && !strcmp(d->rdma[i].joined_bdf, bdf))
			return 1;
	return 0;
}

/*
 * x by its card: a device of the same sys_image_guid tied by evidence
 * names the card (its bus and slot); the devices of that GUID in node
 * GUID order are its physical functions in function order, as mlx5 hands
 * out a card's GUIDs. -1 when no sibling is tied or the counts differ.
 */
static int by_sibling(const struct nicfit_dump *d, const struct nicfit_topo *t,
		      const struct dump_rdma *x)
{
	const struct nicfit_pcidev *card = NULL;
	size_t i;
	int rank = 0, n = 0, k, fn = 0;

	if (!x->sys_guid[0] || !x->node_guid[0])
		return -1;
	for (i = 0; i < d->nrdma; i++) {
		const struct dump_rdma *y = &d->rdma[i];

		if (strcmp(y->sys_guid, x->sys_guid) || !y->node_guid[0])
			continue;
		n++;
		rank += strcmp(y->node_guid, x->node_guid) < 0;
		if ((y->join == DUMP_JOIN_IBDEV || y->join == DUMP_JOIN_ETHTOOL ||
		     y->join == DUMP_JOIN_MATRIX || y->join == DUMP_JOIN_FWGUID) && !card)
			card = &t->pci[nicfit_topo_find(t, y->joined_bdf)];
	}
	if (!card)
		return -1;
	for (k = 0; k < t->npci; k++) {
		const struct nicfit_pcidev *p = &t->pci[k];

		if (p->domain != card->domain || p->bus != card->bus || p->dev != card->dev ||
		    p->physfn >= 0 || p->vendor != card->vendor)
			continue;
		if (fn++ == rank && n > rank)
			return k;
	}
	return -1;
}

/*
 * x by MFT's Base GUID: mlxfwmanager and flint print each card's Base
 * GUID, the first of the GUIDs the card's firmware hands out; mlx5 gives
 * each physical function a node GUID from that range and every function
 * of the card the first as its sys_image_guid (NVIDIA/l2fwd-nv#6: ibstat's
 * mlx5_0 and mlx5_1 of one ConnectX-6 Dx, node GUIDs ...12a and ...12b,
 * system image GUID ...12a for both). A 64-bit GUID equal in both tools
 * names one card, so a device whose node GUID or sys_image_guid is an
 * adapter's Base GUID is on the card of the function the adapter names
 * (dump_mlxfw.c: its PCI Device Name, its mst device's function, its VPD
 * part number); among the devices of that card, node GUID order is
 * function order, as for by_sibling(). -1 when no adapter matches.
 */
static int by_base_guid(const struct nicfit_dump *d, const struct nicfit_topo *t,
			const struct dump_rdma *x)
{
	const struct nicfit_pcidev *card = NULL;
	size_t i;
	int rank = 0, k, fn = 0, pci;

	for (i = 0; i < d->nfwdevs && !card; i++) {
		const struct dump_fwdev *m = &d->fwdevs[i];

		if (!m->base_guid[0] || !m->bdf[0] ||
		    (strcmp(m->base_guid, x->node_guid) && strcmp(m->base_guid, x->sys_guid)))
			continue;
		pci = nicfit_topo_find(t, m->bdf);
		if (pci >= 0)
			card = &t->pci[pci];
	}
	if (!card)
		return -1;
	for (i = 0; x->sys_guid[0] && i < d->nrdma; i++)
		rank += !strcmp(d->rdma[i].sys_guid, x->sys_guid) && d->rdma[i].node_guid[0] &&
			strcmp(d->rdma[i].node_guid, x->node_guid) < 0;
	for (k = 0; k < t->npci; k++) {
		const struct nicfit_pcidev *p = &t->pci[k];

		if (p->domain != card->domain || p->bus != card->bus || p->dev != card->dev ||
		    p->physfn >= 0 || p->vendor != card->vendor)
			continue;
		if (fn++ == rank)
			return k;
	}
	return -1;
}

/* Tie x to function pci by how; 0 when the function is another device's. */
static int tie(struct nicfit_dump *d, const struct nicfit_topo *t, struct dump_rdma *x, int pci,
	       int how)
{
	if (pci < 0 || taken(d, x, t->pci[pci].bdf))
		return 0;
	x->join = how;
	snprintf(x->joined_bdf, sizeof(x->joined_bdf), "%s", t->pci[pci].bdf);
	return 1;
}

/*
 * Ties by name order are taken back when the devices' own GUIDs say
 * otherwise: two devices of one sys_image_guid (one card) tied to functions
 * of different slots. Each tie by order of such a pair goes (both, when
 * both are: which of the two the order got wrong is not known).
 */
static void check_order(struct nicfit_dump *d)
{
	size_t i, k;
	int *untie[2], n;

	for (i = 0; i < d->nrdma; i++)
		for (k = 0; k < d->nrdma; k++) {
			const struct dump_rdma *x = &d->rdma[i], *y = &d->rdma[k];

			if (k == i || !x->join || !y->join || !x->sys_guid[0] ||
			    (x->join != DUMP_JOIN_ORDER && y->join != DUMP_JOIN_ORDER) ||
			    strcmp(y->sys_guid, x->sys_guid) || !strncmp(y->joined_bdf, x->joined_bdf, 10))
				continue;
			untie[0] = &d->rdma[i].join;
			untie[1] = &d->rdma[k].join;
			for (n = 0; n < 2; n++)
				if (*untie[n] == DUMP_JOIN_ORDER)
					*untie[n] = -DUMP_JOIN_ORDER;
		}
	for (i = 0; i < d->nrdma; i++)
		if (d->rdma[i].join < 0) {
			d->rdma[i].join = DUMP_JOIN_NONE;
			d->rdma[i].joined_bdf[0] = '\0';
		}
}

/* Each device's function, by the evidence of dump_facts.h's enum dump_join, best first. */
static void join_rdma(struct nicfit_dump *d, const struct nicfit_topo *t)
{
	size_t i;

	for (i = 0; i < d->nrdma; i++) {
		struct dump_rdma *x = &d->rdma[i];

		if (!(x->bdf[0] && tie(d, t, x, nicfit_topo_find(t, x->bdf), DUMP_JOIN_IBDEV)))
			tie(d, t, x, by_ethtool(d, t, x), DUMP_JOIN_ETHTOOL);
	}
	for (i = 0; i < d->nrdma; i++)
		if (!d->rdma[i].join && d->rdma[i].node_guid[0])
			tie(d, t, &d->rdma[i], by_base_guid(d, t, &d->rdma[i]), DUMP_JOIN_FWGUID);
	for (i = 0; i < d->nrdma; i++)
		if (!d->rdma[i].join)
			tie(d, t, &d->rdma[i], by_sibling(d, t, &d->rdma[i]), DUMP_JOIN_SIBLING);
	for (i = 0; i < d->nrdma; i++)
		if (!d->rdma[i].join && d->rdma[i].name[0])
			tie(d, t, &d->rdma[i], nicfit__dump_matrix_pci(d, t, d->rdma[i].name),
			    DUMP_JOIN_MATRIX);
	for (i = 0; i < d->nrdma; i++) /* a card the matrix placed names its other functions */
		if (!d->rdma[i].join)
			tie(d, t, &d->rdma[i], by_sibling(d, t, &d->rdma[i]), DUMP_JOIN_SIBLING);
	for (i = 0; i < d->nrdma; i++)
		if (!d->rdma[i].join && d->rdma[i].name[0])
			tie(d, t, &d->rdma[i], nicfit__dump_name_pci(t, d->rdma[i].name),
			    DUMP_JOIN_ORDER);
	check_order(d);
}

/* pci, or -1 when another device than name holds it in the model or in the dumps' ties. */
static int held(const struct nicfit_dump *d, const struct nicfit_topo *t, const char *name,
		int pci)
{
	size_t i;
	int r;

	for (r = 0; pci >= 0 && r < t->nrdma; r++)
		if (t->rdma[r].pci == pci && strcmp(t->rdma[r].name, name))
			return -1;
	for (i = 0; pci >= 0 && i < d->nrdma; i++)
		if (d->rdma[i].join && strcmp(d->rdma[i].name, name) &&
		    !strcmp(d->rdma[i].joined_bdf, t->pci[pci].bdf))
			return -1;
	return pci;
}

/*
 * A device only the matrix names: by its column's cells (dump_join.c), else
 * by name order, on a function no device placed earlier holds; how is kept
 * in the matrix's nic_join. -1 unplaced.
 */
static int smi_only_pci(struct nicfit_dump *d, const struct nicfit_topo *t, int k)
{
	const char *name = d->smi.nic[k];
	int pci = held(d, t, name, nicfit__dump_matrix_pci(d, t, name)), how = DUMP_JOIN_MATRIX;

	if (pci < 0) {
		pci = held(d, t, name, nicfit__dump_name_pci(t, name));
		how = DUMP_JOIN_ORDER;
	}
	d->smi.nic_join[k] = pci >= 0 ? how : DUMP_JOIN_NONE;
	return pci;
}

/*
 * The RDMA devices: each on the function join_rdma() tied it to; the
 * NICs nvidia-smi names that no tool listed, by ibdev2netdev -v or name
 * order. ibv_devinfo fills the ports. Returns 0 or NICFIT_E_NOMEM.
 */
static int add_rdma(struct nicfit_dump *d, struct nicfit_topo *t)
{
	size_t i;
	int k, r;

	join_rdma(d, t);
	for (k = 0; k < d->smi.nnics; k++) { /* first, in the matrix's order */
		const char *name = d->smi.nic[k];
		int pci = smi_only_pci(d, t, k);

		for (i = 0; i < d->nrdma; i++)
			if (!strcmp(d->rdma[i].name, name)) {
				pci = d->rdma[i].join ? nicfit_topo_find(t, d->rdma[i].joined_bdf) : -1;
				d->smi.nic_join[k] = d->rdma[i].join;
			}
		if (pci >= 0 && rdma_dev(t, name, pci) < 0)
			return NICFIT_E_NOMEM;
	}
	for (i = 0; i < d->nrdma; i++) {
		const struct dump_rdma *x = &d->rdma[i];

		r = x->join ? rdma_dev(t, x->name, nicfit_topo_find(t, x->joined_bdf)) : -1;
		if (r < 0)
			continue; /* a device no lspci function matches */
		if (x->from_ibv) /* a port whose state no dump gives is left out, not guessed */
			nicfit__dump_rdma_ports(x, &t->rdma[r]);
		for (k = 0; k < NICFIT_TOPO_MAX_PORTS; k++)
			if (x->netdev[k][0] && t->rdma[r].pci >= 0 &&
			    nicfit_topo_add_netdev(t, x->netdev[k], t->rdma[r].pci) < 0)
				return NICFIT_E_NOMEM;
	}
	return 0;
}

static int add_fns(struct nicfit_dump *d, struct nicfit_topo *t, int *map)
{
	size_t i;
	int denied = d->any_denied && !d->any_root;

	for (i = 0; i < d->nfns; i++) {
		int par = parent_of(d, i), hb, idx;

		if (par >= 0 && map[par] < 0)
			par = -1; /* cannot happen: parents sort first */
		hb = par >= 0 ? t->pci[map[par]].hostbridge : hostbridge(t, d->fns[i].domain,
									  d->fns[i].bus);
		if (hb < 0)
			return NICFIT_E_NOMEM;
		idx = nicfit_topo_add_pci(t, d->fns[i].bdf, par >= 0 ? map[par] : -1, hb);
		if (idx < 0)
			return t->npci >= NICFIT_TOPO_MAX_PCI ? NICFIT_E_LIMIT : NICFIT_E_NOMEM;
		map[i] = idx;
		copy_fn(&t->pci[idx], &d->fns[i], denied);
		if (t->pci[idx].depth > NICFIT_TOPO_MAX_DEPTH)
			return NICFIT_E_LIMIT;
	}
	for (i = 0; i < d->nfns; i++)
		if (d->fns[i].is_vf)
			t->pci[map[i]].physfn = physfn_of(t, d->fns, map[i]);
	return 0;
}

/* The distances of numactl's row for node position i, by position in the model. */
static void add_distances(const struct dump_node *n, struct nicfit_numa *out,
			  const struct nicfit_topo *t)
{
	int j, k;

	if (!n->ndist)
		return;
	for (j = 0; j < t->nnuma; j++) {
		for (k = 0; k < n->ndist && n->dist_id[k] != t->numa[j].id; k++)
			;
		if (k == n->ndist)
			return; /* a row that misses a node the model has: keep none */
		out->distance[j] = n->dist[k];
	}
	out->ndistance = t->nnuma;
}

/*
 * The NUMA nodes: those numactl -H or lscpu list (with their CPUs and
 * sockets), then those only lspci names (their CPUs unknown). With one
 * socket in lscpu every node is on it.
 */
static int add_numa(const struct nicfit_dump *d, struct nicfit_topo *t)
{
	const struct dump_cpu *c = &d->cpu;
	size_t i;
	int k, by_count;

	for (k = 0; k < c->nnodes; k++) {
		const struct dump_node *n = &c->node[k];
		/* a list too long to keep has a first CPU: its CPUs are not none */
		int known = n->have_cpus && (n->cpulist[0] || n->first_cpu < 0);

		if (nicfit_topo_add_numa(t, n->id, known ? n->cpulist : NULL,
					 nicfit__dump_node_socket(d, n, &by_count)) < 0)
			return NICFIT_E_NOMEM;
	}
	for (i = 0; i < d->nfns; i++) {
		if (d->fns[i].numa < 0)
			continue;
		for (k = 0; k < t->nnuma; k++)
			if (t->numa[k].id == d->fns[i].numa)
				break;
		if (k == t->nnuma &&
		    nicfit_topo_add_numa(t, d->fns[i].numa, NULL, c->sockets == 1 ? 0 : -1) < 0)
			return NICFIT_E_NOMEM;
	}
	for (k = 0; k < c->nnodes; k++)
		add_distances(&c->node[k], &t->numa[k], t);
	t->numa_from_sysfs = 0;
	if (c->sockets > 0)
		t->npackages = c->sockets;
	return 0;
}

/*
 * The lines whose values could not be read, as the model's read problems
 * ("FILE:LINE" and what), so that the audit says how much it missed where
 * it would otherwise call a damaged paste clean.
 */
static int add_problems(const struct nicfit_dump *d, struct nicfit_topo *t)
{
	size_t kept = d->nproblems < DUMP_MAX_PROBLEMS ? d->nproblems : DUMP_MAX_PROBLEMS, i;
	char path[NICFIT_SYSFS_PATH_MAX];

	t->problems_total = d->nproblems;
	t->problems_in_dump = 1;
	if (!kept)
		return 0;
	t->problems = calloc(kept, sizeof(*t->problems));
	if (!t->problems)
		return NICFIT_E_NOMEM;
	for (i = 0; i < kept; i++) {
		const struct dump_problem *p = &d->problems[i];

		snprintf(path, sizeof(path), "%s:%d", d->texts[p->at.text].name, p->at.line);
		t->problems[i].st = NICFIT_SYSFS_MALFORMED;
		t->problems[i].path = strdup(path);
		t->problems[i].what = strdup(p->what);
		t->nproblems = (int)i + 1;
		if (!t->problems[i].path || !t->problems[i].what)
			return NICFIT_E_NOMEM;
	}
	return 0;
}

int nicfit__dump_build(struct nicfit_dump *d, struct nicfit_topo **out,
		       struct nicfit_error *err)
{
	struct nicfit_topo *t;
	int *map, rc, i;

	*out = NULL;
	if (!d->nfns && nicfit__dump_xml_unread(d))
		return nicfit_error_set(err, NICFIT_E_DATA, "%s", nicfit__dump_xml_unread(d));
	if (!d->nfns && d->nproblems &&
	    !(d->formats & ~(NICFIT_DUMP_LSPCI_V | NICFIT_DUMP_LSPCI | NICFIT_DUMP_LSPCI_TREE |
			     NICFIT_DUMP_HWLOC | NICFIT_DUMP_NCCL)))
		/* a listing whose one function could not be read, and nothing else */
		return nicfit_error_set(err, NICFIT_E_DATA, "%s:%d: %s; no PCI function could be "
					"read", d->texts[d->problems[0].at.text].name,
					d->problems[0].at.line, d->problems[0].what);
	if (!d->formats)
		return nicfit_error_set(err, NICFIT_E_DATA, "%s%s: no supported listing found (the "
					"audit reads lspci, nvidia-smi topo -m, ibv_devinfo, ibstat, "
					"ibdev2netdev, show_gids, iblinkinfo, mlxfwmanager, flint q, mst "
					"status, ip link, ethtool -i, numactl, lscpu, dmesg, hwloc or NCCL "
					"topology XML)",
					d->ntexts ? d->texts[0].name : "dump",
					d->ntexts > 1 ? " and the other inputs" : "");
	if (d->nfns) /* a paste without lspci has none, and qsort wants an array */
		qsort(d->fns, d->nfns, sizeof(d->fns[0]), by_addr);
	if (d->by_bdf) { /* the functions moved: the indexes are made again */
		d->by_bdf->fns = d->by_bdf->bus_fns = NULL;
		d->by_bdf->hashed = d->by_bdf->nslots = 0;
	}
	fill_siblings(d);
	nicfit__dump_net_fns(d);
	nicfit__dump_fw_resolve(d);
	t = nicfit_topo_new();
	map = malloc((d->nfns ? d->nfns : 1) * sizeof(*map));
	if (!t || !map) {
		free(map);
		nicfit_topo_free(t);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	for (i = 0; i < (int)d->nfns; i++)
		map[i] = -1;
	snprintf(t->root, sizeof(t->root), "dump:%s", d->ntexts ? d->texts[0].name : "");
	t->live = 0;
	t->euid = -1;
	t->privileged = d->any_root && !d->any_denied;
	t->nvidia_driver = d->smi.present || d->gpu_map ? 1 : -1;
	t->iommu = -1;
	/* the RDMA list is judged as complete: audit/audit_dump.c notes what the dumps lack ("rdma") */
	t->rdma_listed = 1;
	/* so are drivers: audit/audit_dump.c takes back no-driver findings of functions without -k */
	t->drivers_listed = 1;
	rc = add_fns(d, t, map);
	free(map);
	if (!rc)
		rc = add_numa(d, t);
	for (i = 0; !rc && i < t->npci; i++)
		if (t->pci[i].vendor == PCI_VENDOR_NVIDIA && !strcmp(t->pci[i].driver, "nvidia"))
			t->nvidia_driver = 1;
	if (!rc)
		rc = add_rdma(d, t);
	if (!rc)
		rc = nicfit__dump_xml_build(d, t);
	if (!rc)
		rc = nicfit__dump_net_build(d, t);
	if (!rc)
		rc = add_problems(d, t);
	if (rc) {
		nicfit_topo_free(t);
		return rc == NICFIT_E_LIMIT ? nicfit_error_set(err, rc, "%s: the PCI tree is too "
							       "large or too deep",
							       d->texts[0].name)
					    : nicfit_error_set(err, rc, "out of memory");
	}
	nicfit_topo_finish(t);
	*out = t;
	return 0;
}

int nicfit_dump_topo(struct nicfit_dump *d, struct nicfit_topo **out, struct nicfit_error *err)
{
	return nicfit__dump_build(d, out, err);
}
