/*
 * audit_dev.c - the devices an audit judges (see audit_int.h): which PCI
 * functions are listed (GPUs, accelerators, NVSwitches and network
 * functions; every function with --all), in PCI address order, each with
 * a label ("GPU0", "mlx5_0"), a name and, for network cards, a part
 * number and catalog entry. Naming goes from the most to the least
 * specific source: VPD or the firmware's PSID, the catalog, the built-in
 * ID table, VPD's product name, the class; pci.ids is consulted last, and
 * only on request (the one part of the audit that reads a file).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/fmt_int.h"
#include "core/pciids_int.h"

static int listed(const struct nicfit_pcidev *p, int all)
{
	if (all)
		return 1;
	if (p->physfn >= 0)
		return 0; /* VFs are counted on their PF */
	return p->kind == NICFIT_DEV_GPU || p->kind == NICFIT_DEV_ACCEL ||
	       p->kind == NICFIT_DEV_NIC || p->kind == NICFIT_DEV_NVSWITCH;
}

/* A function to sort, keyed by its address: the sort needs no context. */
struct keyed {
	unsigned domain, bus, dev, fn;
	int pci;                 /* topo index */
};

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->fn != b->fn)
		return a->fn < b->fn ? -1 : 1;
	return a->pci - b->pci;
}

static const struct nicfit_gpu *catalog_gpu(const struct nicfit__audit_ctx *c, unsigned v,
					    unsigned d)
{
	size_t i, n;

	if (!c->cat)
		return NULL;
	n = nicfit_catalog_count(c->cat, NICFIT_KIND_GPU);
	for (i = 0; i < n; i++) {
		const struct nicfit_gpu *g = nicfit_catalog_gpu(c->cat, i);

		if (g->pci_vendor == v && g->pci_device == d)
			return g;
	}
	return NULL;
}

static void generic_name(const struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	const char *vn = nicfit__pci_vendor_name(p->vendor);
	char vbuf[16];

	if (!vn) {
		nicfit__fmt(vbuf, sizeof(vbuf), "vendor %04x", p->vendor);
		vn = vbuf;
	}
	nicfit__fmt(d->name, sizeof(d->name), "%s %s (%04x:%04x)", vn,
		 p->kind == NICFIT_DEV_NVSWITCH ? "NVSwitch" : nicfit_pci_class_name(p->class_code),
		 p->vendor, p->device);
	d->name_source = "class";
}

/* Physical functions of pci's card with its IDs: one per port on cards such as the X710-TL. */
static int card_functions(const struct nicfit__audit_ctx *c, int pci)
{
	const struct nicfit_pcidev *p = P(c, pci);
	int k, n = 0;

	if (c->card_fns)
		return c->card_fns[pci];
	for (k = 0; k < c->t->npci; k++) {
		const struct nicfit_pcidev *o = &c->t->pci[k];

		if (o->physfn < 0 && o->vendor == p->vendor && o->device == p->device &&
		    nicfit__audit_same_card(p, o))
			n++;
	}
	return n;
}

/* Whether two functions have one slot and the same IDs: one card's functions of a kind. */
static int same_slot_ids(const struct nicfit_pcidev *a, const struct nicfit_pcidev *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev &&
	       a->vendor == b->vendor && a->device == b->device;
}

/* A function's slot and IDs hashed (murmur3's 64-bit finalizer over them). */
static size_t slot_ids_hash(const struct nicfit_pcidev *p)
{
	uint64_t x = ((uint64_t)p->domain << 32 | p->bus << 8 | p->dev) ^
		     ((uint64_t)p->vendor << 16 | p->device) * 0x9e3779b97f4a7c15u;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdu;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53u;
	return (size_t)(x ^ (x >> 33));
}

/*
 * card_functions for every function at once: the functions are grouped
 * by slot and IDs in a hash table (one probe each, not a sort), each group
 * is one card's functions with those IDs, and its physical functions are
 * counted once for all of them. NULL: no memory (card_functions then
 * scans).
 */
static int *count_card_functions(const struct nicfit_topo *t)
{
	size_t all = (size_t)(t->npci ? t->npci : 1), cap = 16, i;
	int *n = malloc(all * sizeof(*n)), *tab, *pfs;
	size_t *group = malloc(all * sizeof(*group));

	while (cap < 2 * all)
		cap *= 2;
	tab = calloc(cap, sizeof(*tab)); /* a group's first function + 1, 0 none */
	pfs = calloc(cap, sizeof(*pfs));
	if (!n || !group || !tab || !pfs) {
		free(n);
		n = NULL;
		goto out;
	}
	for (i = 0; i < (size_t)t->npci; i++) {
		const struct nicfit_pcidev *p = &t->pci[i];
		size_t k = slot_ids_hash(p) & (cap - 1);

		while (tab[k] && !same_slot_ids(&t->pci[tab[k] - 1], p))
			k = (k + 1) & (cap - 1);
		if (!tab[k])
			tab[k] = (int)i + 1;
		group[i] = k;
		pfs[k] += p->physfn < 0;
	}
	for (i = 0; i < (size_t)t->npci; i++)
		n[i] = pfs[group[i]];
out:
	free(group);
	free(tab);
	free(pfs);
	return n;
}

static void name_device(struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	const struct nicfit_pci_id *id = nicfit__pci_id_find(p->vendor, p->device);
	const struct nicfit_gpu *g;
	int r;

	if (p->kind == NICFIT_DEV_NIC) {
		const struct nicfit_nic *by_psid = NULL;

		/*
		 * VPD is root-only; the firmware's PSID (board_id) is readable by
		 * every user, so both name the same part from the catalog.
		 */
		r = nicfit__audit_rdma_of(c, d->pci);
		if (c->cat && r >= 0)
			by_psid = nicfit_catalog_find_nic_psid(c->cat, c->t->rdma[r].board_id);
		if (p->vpd_part[0]) {
			nicfit__fmt(d->part, sizeof(d->part), "%s", p->vpd_part);
			d->part_source = "vpd";
		} else if (by_psid) {
			nicfit__fmt(d->part, sizeof(d->part), "%s", by_psid->part);
			d->part_source = "psid";
		}
		if (c->cat && d->part[0])
			d->cat_nic = nicfit_catalog_find_nic(c->cat, d->part, NULL, NULL);
		if (c->cat && !d->cat_nic && (p->have & NICFIT_HAVE_SUBSYS)) {
			d->cat_nic = nicfit_catalog_find_nic_pci(c->cat, p->vendor, p->device, p->subvendor,
							 p->subdevice);
			if (d->cat_nic && !d->part[0]) {
				nicfit__fmt(d->part, sizeof(d->part), "%s", d->cat_nic->part);
				d->part_source = "pci-subsystem";
			}
		}
		if (d->cat_nic) {
			nicfit__fmt(d->name, sizeof(d->name), "%s %s", d->cat_nic->family, d->cat_nic->part);
			d->name_source = "catalog";
			return;
		}
		if (id) {
			const char *card = nicfit__pci_id_card_name(p->vendor, p->device,
								    card_functions(c, d->pci));

			nicfit__fmt(d->name, sizeof(d->name), "%s%s%s", card ? card : id->name,
				 d->part[0] ? " " : "", d->part);
			d->name_source = "built-in";
			return;
		}
		if (p->vpd_name[0]) {
			nicfit__fmt(d->name, sizeof(d->name), "%s", p->vpd_name);
			d->name_source = "vpd";
			return;
		}
	}
	if (id) {
		nicfit__fmt(d->name, sizeof(d->name), "%s", id->name);
		d->name_source = "built-in";
		return;
	}
	g = (p->have & NICFIT_HAVE_IDS) ? catalog_gpu(c, p->vendor, p->device) : NULL;
	if (g) { /* a device with no IDs (lspci without -nn, NCCL's class-only <pci>) is none */
		nicfit__fmt(d->name, sizeof(d->name), "%s", g->e.name);
		d->name_source = "catalog";
		return;
	}
	generic_name(c, d);
}

/* Counters for the labels of one kind: GPU0, ACC0, NVS0, NIC0. */
struct labels {
	int gpu, acc, nic, nvs;
};

const char *nicfit__audit_short_bdf(const char *bdf)
{
	return strncmp(bdf, "0000:", 5) ? bdf : bdf + 5;
}

/* GPUs and accelerators by count; NICs by RDMA device or interface name. */
static void label_device(const struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d,
			 struct labels *n)
{
	const struct nicfit_topo *t = c->t;
	int r, nd;

	switch (d->kind) {
	case NICFIT_DEV_GPU:
		nicfit__fmt(d->label, sizeof(d->label), "GPU%d", n->gpu++);
		break;
	case NICFIT_DEV_ACCEL:
		nicfit__fmt(d->label, sizeof(d->label), "ACC%d", n->acc++);
		break;
	case NICFIT_DEV_NVSWITCH:
		nicfit__fmt(d->label, sizeof(d->label), "NVS%d", n->nvs++);
		break;
	case NICFIT_DEV_NIC:
		r = nicfit__audit_rdma_of(c, d->pci);
		nd = nicfit__audit_first_netdev(c, d->pci);
		d->rdma = r >= 0;
		d->rdma_unknown = nicfit__audit_rdma_unknown(c, d->pci);
		if (r >= 0)
			nicfit__fmt(d->label, sizeof(d->label), "%s", t->rdma[r].name);
		else if (nd >= 0)
			nicfit__fmt(d->label, sizeof(d->label), "%s", t->net[nd].name);
		else
			nicfit__fmt(d->label, sizeof(d->label), "NIC%d", n->nic);
		n->nic++;
		break;
	default:
		nicfit__fmt(d->label, sizeof(d->label), "%s",
			    nicfit__audit_short_bdf(P(c, d->pci)->bdf));
		break;
	}
}

/* Functions of one card share its identity (VPD is read from function 0). */
static void share_card_identity(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i, k, givers = 0;

	for (i = 0; i < a->ndevs; i++)
		givers += a->devs[i].kind == NICFIT_DEV_NIC && a->devs[i].part[0];
	for (i = 0; givers && i < a->ndevs; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];

		if (d->kind != NICFIT_DEV_NIC || d->part[0])
			continue;
		for (k = 0; k < a->ndevs; k++) {
			const struct nicfit_audit_dev *o = &a->devs[k];

			if (k == i || o->kind != NICFIT_DEV_NIC || !o->part[0] ||
			    !nicfit__audit_same_card(P(c, d->pci), P(c, o->pci)))
				continue;
			memcpy(d->part, o->part, sizeof(d->part));
			memcpy(d->name, o->name, sizeof(d->name));
			d->part_source = o->part_source;
			d->name_source = o->name_source;
			d->cat_nic = o->cat_nic;
			break;
		}
	}
}

int nicfit__audit_choose_devices(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;
	size_t all = (size_t)(t->npci ? t->npci : 1);
	struct labels labels = { 0, 0, 0, 0 };
	struct keyed *order;
	int *vfs, *card_fns;
	int n = 0, i;

	order = malloc(all * sizeof(*order));
	vfs = calloc(all, sizeof(*vfs));
	c->dev_of = malloc(all * sizeof(*c->dev_of));
	c->seen_link = calloc(all, 1);
	if (!order || !vfs || !c->dev_of || !c->seen_link) {
		free(order);
		free(vfs);
		return -1;
	}
	c->card_fns = card_fns = count_card_functions(t);
	for (i = 0; i < t->npci; i++) /* each function's VFs, in one pass */
		if (t->pci[i].physfn >= 0 && t->pci[i].physfn < t->npci)
			vfs[t->pci[i].physfn]++;
	for (i = 0; i < t->npci; i++) {
		const struct nicfit_pcidev *p = &t->pci[i];

		c->dev_of[i] = -1;
		if (!listed(p, c->o->all))
			continue;
		order[n].domain = p->domain;
		order[n].bus = p->bus;
		order[n].dev = p->dev;
		order[n].fn = p->fn;
		order[n].pci = i;
		n++;
	}
	qsort(order, (size_t)n, sizeof(*order), cmp_keyed);
	a->devs = calloc((size_t)(n ? n : 1), sizeof(*a->devs));
	if (!a->devs) {
		free(order);
		free(vfs);
		free(card_fns);
		c->card_fns = NULL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];

		d->pci = order[i].pci;
		d->kind = t->pci[d->pci].kind;
		d->best_nic = -1;
		d->numa = nicfit_topo_numa_of(t, d->pci);
		d->socket = d->numa >= 0 ? nicfit_topo_socket_of_node(t, d->numa) : -1;
		d->link.limit_pci = -1;
		c->dev_of[d->pci] = i;
		name_device(c, d);
		d->vfs = vfs[d->pci];
		label_device(c, d, &labels);
	}
	a->ndevs = n;
	free(order);
	free(vfs);
	free(card_fns);
	c->card_fns = NULL;
	share_card_identity(c);
	return 0;
}

int nicfit_audit_name_from_pciids(struct nicfit_audit *a, const char *path,
				  struct nicfit_error *err)
{
	struct nicfit_pciids_query *q;
	int i, n = 0, rc;

	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].name_source && !strcmp(a->devs[i].name_source, "class"))
			n++;
	if (!n)
		return 0;
	q = calloc((size_t)n, sizeof(*q));
	if (!q)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (i = 0, n = 0; i < a->ndevs; i++)
		if (!strcmp(a->devs[i].name_source, "class")) {
			q[n].vendor = a->topo->pci[a->devs[i].pci].vendor;
			q[n].device = a->topo->pci[a->devs[i].pci].device;
			n++;
		}
	rc = nicfit__pciids_lookup(path, q, (size_t)n, err);
	for (i = 0, n = 0; !rc && i < a->ndevs; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];

		if (strcmp(d->name_source, "class"))
			continue;
		if (q[n].device_name[0]) {
			const char *vn = nicfit__pci_vendor_name(q[n].vendor);

			nicfit__fmt(d->name, sizeof(d->name), "%s %s", vn ? vn : q[n].vendor_name,
				 q[n].device_name);
			d->name_source = "pci.ids";
		}
		n++;
	}
	free(q);
	return rc;
}
