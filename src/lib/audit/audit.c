/*
 * audit.c - judging the host model (see nicfit/audit.h).
 *
 * The passes, in order: choose and name the devices; the PCIe path of each;
 * what each network card needs against what its path gives; RDMA ports;
 * GPU-NIC pairs and the nearest NIC of each GPU; GPUDirect, ACS, IOMMU;
 * host-wide notes; what could not be checked. Nothing here reads a file.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_int.h"
#include "nicfit/audit.h"
#include "nicfit/link.h"
#include "pciids_int.h"
#include "nicfit/perf.h"
#include "nicfit/units.h"

#define S_TOPO_GDR "reference/topology.md 1.5 (NCCL ncclTopoCheckGdr)"
#define S_TOPO_SMI "reference/topology.md 2 (nvidia-smi topo -m legend)"
#define S_TOPO_TRAPS "reference/topology.md 6"
#define S_PCIE "reference/bandwidth.md 1 (PCIe model, nicfit calc pcie)"
#define S_NIC_PCIE "reference/anchors.md 5.1-5.2; NVIDIA/nccl#452"
#define S_ROCE "reference/anchors.md 5.6-5.7"
#define S_VPI "reference/anchors.md 1.5, 5.9 (mlxconfig LINK_TYPE_P1)"
#define S_GDR_KERNEL "reference/topology.md 1.1 (NCCL net_ib/gdr.cc)"
#define S_ACS "reference/anchors.md 5.4"
#define S_SEED "reference/seed-article.txt; DESIGN.md"
#define S_X710 "reference/nic-identity.md 2.3; reference/anchors.md 5.8"
#define S_IDS "reference/nic-identity.md 3"

const char *nicfit_path_name(enum nicfit_path p)
{
	static const char *const n[] = { "PIX", "PXB", "PHB", "NODE", "SYS" };

	return p <= NICFIT_PATH_SYS ? n[p] : "SYS";
}

struct ctx {
	struct nicfit_audit *a;
	const struct nicfit_topo *t;
	const struct nicfit_catalog *cat;
	const struct nicfit_audit_opts *o;
	int *dev_of;      /* topo index -> devs index, -1 */
	int oom;
	char *seen_link;  /* topo index of a link's child already reported */
};

/* ---- small helpers ---------------------------------------------------------- */

static const struct nicfit_pcidev *P(const struct ctx *c, int i)
{
	return &c->t->pci[i];
}

static int gen_of(double gts)
{
	return nicfit_pcie_gen_from_gts(gts);
}

/* Effective (and raw) rate of a link; -1 when unknown. */
static double rate(const struct ctx *c, double gts, int width, double *raw)
{
	struct nicfit_pcie_result r;
	int gen = gen_of(gts);

	if (raw)
		*raw = -1;
	if (!gen || width < 1 || width > 32 || nicfit_pcie_calc(gen, width, &c->a->pcie, &r, NULL))
		return -1;
	if (raw)
		*raw = r.raw_gbps;
	return r.effective_gbps;
}

/* "Gen3 x16" into buf. */
static const char *genw(char *buf, size_t n, double gts, int width)
{
	int g = gen_of(gts);

	if (g && width)
		snprintf(buf, n, "Gen%d x%d", g, width);
	else if (g)
		snprintf(buf, n, "Gen%d", g);
	else if (width)
		snprintf(buf, n, "x%d", width);
	else
		snprintf(buf, n, "unknown");
	return buf;
}

static void add_finding(struct ctx *c, enum nicfit_severity sev, const char *code,
			const char *device, const char *source, const char *fix,
			const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void add_finding(struct ctx *c, enum nicfit_severity sev, const char *code,
			const char *device, const char *source, const char *fix,
			const char *fmt, ...)
{
	struct nicfit_audit *a = c->a;
	struct nicfit_audit_finding *f;
	va_list ap;

	if (a->nfindings == a->fcap) {
		int cap = a->fcap ? a->fcap * 2 : 16;
		void *p = realloc(a->findings, (size_t)cap * sizeof(*f));

		if (!p) {
			c->oom = 1;
			return;
		}
		a->findings = p;
		a->fcap = cap;
	}
	f = &a->findings[a->nfindings++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	snprintf(f->code, sizeof(f->code), "%s", code);
	snprintf(f->device, sizeof(f->device), "%s", device ? device : "host");
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
	f->source = source;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

static void not_checked(struct ctx *c, const char *check, const char *why)
{
	struct nicfit_audit *a = c->a;
	int i;

	for (i = 0; i < a->nnot_checked; i++)
		if (!strcmp(a->not_checked[i].check, check))
			return;
	if (a->nnot_checked == NICFIT_AUDIT_MAX_NOT_CHECKED)
		return;
	snprintf(a->not_checked[a->nnot_checked].check, sizeof(a->not_checked[0].check), "%s", check);
	snprintf(a->not_checked[a->nnot_checked].why, sizeof(a->not_checked[0].why), "%s", why);
	a->nnot_checked++;
}

/* ---- devices ------------------------------------------------------------------- */

static int listed(const struct nicfit_pcidev *p, int all)
{
	if (all)
		return 1;
	if (p->physfn >= 0)
		return 0; /* VFs are counted on their PF */
	return p->kind == NICFIT_DEV_GPU || p->kind == NICFIT_DEV_ACCEL ||
	       p->kind == NICFIT_DEV_NIC || p->kind == NICFIT_DEV_NVSWITCH;
}

static const struct nicfit_pcidev *sort_topo;

static int cmp_pci(const void *x, const void *y)
{
	const struct nicfit_pcidev *a = &sort_topo[*(const int *)x], *b = &sort_topo[*(const int *)y];

	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (int)a->fn - (int)b->fn;
}

static const struct nicfit_gpu *catalog_gpu(const struct ctx *c, unsigned v, unsigned d)
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

/* The RDMA device of a function, or -1. */
static int rdma_of(const struct ctx *c, int pci)
{
	int i;

	for (i = 0; i < c->t->nrdma; i++)
		if (c->t->rdma[i].pci == pci)
			return i;
	return -1;
}

static int first_netdev(const struct ctx *c, int pci)
{
	int i;

	for (i = 0; i < c->t->nnet; i++)
		if (c->t->net[i].pci == pci && !c->t->net[i].is_virtual)
			return i;
	return -1;
}

static void generic_name(const struct ctx *c, struct nicfit_audit_dev *d)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	const char *vn = nicfit_pci_vendor_name(p->vendor);
	char vbuf[16];

	if (!vn) {
		snprintf(vbuf, sizeof(vbuf), "vendor %04x", p->vendor);
		vn = vbuf;
	}
	snprintf(d->name, sizeof(d->name), "%s %s (%04x:%04x)", vn,
		 p->kind == NICFIT_DEV_NVSWITCH ? "NVSwitch" : nicfit_pci_class_name(p->class_code),
		 p->vendor, p->device);
	d->name_source = "class";
}

static void name_device(struct ctx *c, struct nicfit_audit_dev *d)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	const struct nicfit_pci_id *id = nicfit_pci_id_find(p->vendor, p->device);
	const struct nicfit_gpu *g;
	int r;

	if (p->kind == NICFIT_DEV_NIC) {
		const char *psid;

		if (p->vpd_part[0]) {
			snprintf(d->part, sizeof(d->part), "%s", p->vpd_part);
			d->part_source = "vpd";
		} else if ((r = rdma_of(c, d->pci)) >= 0 &&
			   (psid = nicfit_psid_part(c->t->rdma[r].board_id)) != NULL) {
			snprintf(d->part, sizeof(d->part), "%s", psid);
			d->part_source = "psid";
		}
		if (c->cat && d->part[0])
			d->cat_nic = nicfit_catalog_find_nic(c->cat, d->part, NULL, NULL);
		if (c->cat && !d->cat_nic && (p->have & NICFIT_HAVE_SUBSYS)) {
			d->cat_nic = nicfit_catalog_find_nic_pci(c->cat, p->vendor, p->device, p->subvendor,
							 p->subdevice);
			if (d->cat_nic && !d->part[0]) {
				snprintf(d->part, sizeof(d->part), "%s", d->cat_nic->part);
				d->part_source = "pci-subsystem";
			}
		}
		if (d->cat_nic) {
			snprintf(d->name, sizeof(d->name), "%s %s", d->cat_nic->family, d->cat_nic->part);
			d->name_source = "catalog";
			return;
		}
		if (id) {
			snprintf(d->name, sizeof(d->name), "%s%s%s", id->name, d->part[0] ? " " : "",
				 d->part);
			d->name_source = "built-in";
			return;
		}
		if (p->vpd_name[0]) {
			snprintf(d->name, sizeof(d->name), "%s", p->vpd_name);
			d->name_source = "vpd";
			return;
		}
	}
	if (id) {
		snprintf(d->name, sizeof(d->name), "%s", id->name);
		d->name_source = "built-in";
		return;
	}
	g = catalog_gpu(c, p->vendor, p->device);
	if (g) {
		snprintf(d->name, sizeof(d->name), "%s", g->e.name);
		d->name_source = "catalog";
		return;
	}
	generic_name(c, d);
}

static int choose_devices(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;
	int *order, n = 0, i, gi = 0, ai = 0, ni = 0, si = 0;

	order = malloc((size_t)(t->npci ? t->npci : 1) * sizeof(*order));
	c->dev_of = malloc((size_t)(t->npci ? t->npci : 1) * sizeof(*c->dev_of));
	c->seen_link = calloc((size_t)(t->npci ? t->npci : 1), 1);
	if (!order || !c->dev_of || !c->seen_link) {
		free(order);
		return -1;
	}
	for (i = 0; i < t->npci; i++) {
		c->dev_of[i] = -1;
		if (listed(&t->pci[i], c->o->all))
			order[n++] = i;
	}
	sort_topo = t->pci;
	qsort(order, (size_t)n, sizeof(*order), cmp_pci);
	a->devs = calloc((size_t)(n ? n : 1), sizeof(*a->devs));
	if (!a->devs) {
		free(order);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = &t->pci[order[i]];
		int r, nd, k;

		d->pci = order[i];
		d->kind = p->kind;
		d->best_nic = -1;
		d->numa = nicfit_topo_numa_of(t, d->pci);
		d->socket = d->numa >= 0 ? nicfit_topo_socket_of_node(t, d->numa) : -1;
		d->link.limit_pci = -1;
		c->dev_of[d->pci] = i;
		name_device(c, d);
		for (k = 0; k < t->npci; k++)
			if (t->pci[k].physfn == d->pci)
				d->vfs++;
		switch (p->kind) {
		case NICFIT_DEV_GPU:
			snprintf(d->label, sizeof(d->label), "GPU%d", gi++);
			break;
		case NICFIT_DEV_ACCEL:
			snprintf(d->label, sizeof(d->label), "ACC%d", ai++);
			break;
		case NICFIT_DEV_NVSWITCH:
			snprintf(d->label, sizeof(d->label), "NVS%d", si++);
			break;
		case NICFIT_DEV_NIC:
			r = rdma_of(c, d->pci);
			nd = first_netdev(c, d->pci);
			d->rdma = r >= 0;
			if (r >= 0)
				snprintf(d->label, sizeof(d->label), "%s", t->rdma[r].name);
			else if (nd >= 0)
				snprintf(d->label, sizeof(d->label), "%s", t->net[nd].name);
			else
				snprintf(d->label, sizeof(d->label), "NIC%d", ni);
			ni++;
			break;
		default:
			snprintf(d->label, sizeof(d->label), "%s", p->bdf + 5);
			break;
		}
	}
	a->ndevs = n;
	free(order);
	/* Functions of one card share its identity (VPD is read from function 0). */
	for (i = 0; i < n; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];
		int k;

		if (d->kind != NICFIT_DEV_NIC || d->part[0])
			continue;
		for (k = 0; k < n; k++) {
			const struct nicfit_audit_dev *o = &a->devs[k];
			const struct nicfit_pcidev *p = &t->pci[d->pci], *q = &t->pci[o->pci];

			if (k == i || o->kind != NICFIT_DEV_NIC || !o->part[0] || p->domain != q->domain ||
			    p->bus != q->bus || p->dev != q->dev)
				continue;
			memcpy(d->part, o->part, sizeof(d->part));
			memcpy(d->name, o->name, sizeof(d->name));
			d->part_source = o->part_source;
			d->name_source = o->name_source;
			d->cat_nic = o->cat_nic;
			break;
		}
	}
	return 0;
}

/* ---- PCIe paths ---------------------------------------------------------------- */

static int upstream_facing(enum nicfit_port_type t)
{
	return t == NICFIT_PORT_ENDPOINT || t == NICFIT_PORT_UPSTREAM;
}

static int downstream_port(enum nicfit_port_type t)
{
	return t == NICFIT_PORT_ROOT || t == NICFIT_PORT_DOWNSTREAM;
}

static unsigned id_flags(const struct nicfit_pcidev *p)
{
	const struct nicfit_pci_id *id = nicfit_pci_id_find(p->vendor, p->device);

	return id ? id->flags : 0;
}

static double min_known(double x, double y)
{
	if (x <= 0)
		return y;
	if (y <= 0)
		return x;
	return x < y ? x : y;
}

static int min_known_i(int x, int y)
{
	if (x <= 0)
		return y;
	if (y <= 0)
		return x;
	return x < y ? x : y;
}

struct hop {
	int up, down;            /* topo indices: port above, function below */
	double cap_gts, cur_gts;
	int cap_w, cur_w;
	double now, now_raw, cap; /* effective rates; -1 unknown */
	int idle;
};

/* The links from the device up to its host bridge, device's own link first. */
static int hops_of(const struct ctx *c, int pci, struct hop *h, int max, int *nominal)
{
	int chain[2 * NICFIT_TOPO_MAX_DEPTH], n, k, nh = 0, top_int = -1;

	*nominal = (id_flags(P(c, pci)) & NICFIT_PCIID_INTERNAL) != 0;
	n = nicfit_topo_chain(c->t, pci, chain, (int)(sizeof(chain) / sizeof(chain[0])));
	for (k = 0; k < n; k++)
		if (id_flags(P(c, chain[k])) & NICFIT_PCIID_INTBRIDGE) {
			top_int = k;
			break;
		}
	if (top_int >= 0)
		*nominal = 1;
	for (k = n - 1; k >= 1 && nh < max; k--) {
		const struct nicfit_pcidev *e = P(c, chain[k]), *p = P(c, chain[k - 1]);
		struct hop *x;

		if (e->parent != chain[k - 1] || !upstream_facing(e->port_type) ||
		    !downstream_port(p->port_type))
			continue;
		if (top_int >= 0 && k > top_int)
			continue; /* inside the chipset: nominal links */
		if (!(e->have & NICFIT_HAVE_LINK_FILES) && !(p->have & NICFIT_HAVE_LINK_FILES))
			continue;
		x = &h[nh++];
		memset(x, 0, sizeof(*x));
		x->up = chain[k - 1];
		x->down = chain[k];
		x->cap_gts = min_known(e->max_gts, p->max_gts);
		x->cap_w = min_known_i(e->max_width, p->max_width);
		x->cur_gts = e->cur_gts > 0 ? e->cur_gts : p->cur_gts;
		x->cur_w = e->cur_width > 0 ? e->cur_width : p->cur_width;
	}
	return nh;
}

static void judge_link(struct ctx *c, struct nicfit_audit_dev *d)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	struct nicfit_audit_link *L = &d->link;
	struct hop h[2 * NICFIT_TOPO_MAX_DEPTH];
	int nh, k, gpu = d->kind == NICFIT_DEV_GPU || d->kind == NICFIT_DEV_ACCEL;
	int min_now = -1, min_cap = -1;
	char b1[32], b2[32], b3[32];

	L->cur_gts = p->cur_gts;
	L->max_gts = p->max_gts;
	L->cur_width = p->cur_width;
	L->max_width = p->max_width;
	L->path_gbps = L->path_raw_gbps = L->path_max_gbps = L->own_max_gbps = -1;
	L->limit_pci = -1;
	nh = hops_of(c, d->pci, h, (int)(sizeof(h) / sizeof(h[0])), &L->nominal);
	L->hops = nh;
	L->known = nh > 0 || (p->have & (NICFIT_HAVE_CUR_SPEED | NICFIT_HAVE_MAX_SPEED));
	L->own_max_gbps = rate(c, p->max_gts, p->max_width, NULL);
	for (k = 0; k < nh; k++) {
		struct hop *x = &h[k];
		double g = x->cur_gts > 0 ? x->cur_gts : x->cap_gts;
		int w = x->cur_w > 0 ? x->cur_w : x->cap_w;

		if (k == 0 && gpu && x->cur_gts > 0 && x->cap_gts > 0 && x->cur_gts < x->cap_gts) {
			x->idle = 1;
			L->idle = 1;
			g = x->cap_gts;
		}
		x->now = rate(c, g, w, &x->now_raw);
		x->cap = rate(c, x->cap_gts, x->cap_w, NULL);
		if (x->now >= 0 && (min_now < 0 || x->now < h[min_now].now))
			min_now = k;
		if (x->cap >= 0 && (min_cap < 0 || x->cap < h[min_cap].cap))
			min_cap = k;
	}
	if (min_now >= 0) {
		L->path_gbps = h[min_now].now;
		L->path_raw_gbps = h[min_now].now_raw;
	}
	if (min_cap >= 0)
		L->path_max_gbps = h[min_cap].cap;
	if (min_now >= 0 && L->own_max_gbps > 0 && L->path_gbps < L->own_max_gbps - 0.01) {
		struct hop *x = &h[min_now];

		L->limit_pci = x->up;
		L->limit_gen = gen_of(x->idle || x->cur_gts <= 0 ? x->cap_gts : x->cur_gts);
		L->limit_width = x->cur_w > 0 ? x->cur_w : x->cap_w;
	}
	if (c->t->is_virtual) {
		/* a hypervisor's ports report whatever it likes */
		L->path_gbps = L->path_raw_gbps = L->path_max_gbps = -1;
		L->limit_pci = -1;
		return;
	}
	if (L->nominal)
		return; /* chipset-internal links report nominal figures */

	/* The device's own link. */
	if (nh > 0 && h[0].down == d->pci) {
		struct hop *x = &h[0];
		const struct nicfit_pcidev *up = P(c, x->up);

		if (x->cur_w > 0 && x->cap_w > 0 && x->cur_w < x->cap_w) {
			double now = rate(c, x->cap_gts, x->cur_w, NULL), full = x->cap;

			add_finding(c, NICFIT_SEV_WARNING, "link-width-downtrained", p->bdf, S_PCIE,
				    "Reseat the card, check the riser and its cable; a link that trains narrow is a "
				    "physical fault. Compare with `lspci -vv -s` LnkSta as root.",
				    "%s %s negotiated x%d though the card and port %s both do x%d "
				    "(≈ %.0f instead of ≈ %.0f Gb/s).", d->label, d->name, x->cur_w, up->bdf,
				    x->cap_w, now, full);
		}
		if (x->cur_gts > 0 && x->cap_gts > 0 && x->cur_gts < x->cap_gts) {
			if (gpu) {
				add_finding(c, NICFIT_SEV_INFO, "gpu-link-idle", p->bdf, S_TOPO_TRAPS,
					    "Re-check under load (e.g. while a job runs, or `nvidia-smi "
					    "--query-gpu=pcie.link.gen.current --format=csv`); only a link that "
					    "stays low under load is a fault.",
					    "%s's link is at %s now; it and its slot can run %s. GPUs lower "
					    "the link speed when idle, so this is not a fault by itself.", d->label,
					    genw(b1, sizeof(b1), x->cur_gts, 0), genw(b2, sizeof(b2), x->cap_gts, 0));
			} else {
				add_finding(c, NICFIT_SEV_WARNING, "link-speed-downtrained", p->bdf, S_PCIE,
					    "Check the BIOS PCIe speed setting of this slot (often forced to Gen3 "
					    "or 'Auto' on a riser), the riser, and reseat the card.",
					    "%s %s trained at %s though it and port %s both support %s "
					    "(≈ %.0f instead of ≈ %.0f Gb/s).", d->label, d->name,
					    genw(b1, sizeof(b1), x->cur_gts, 0), up->bdf,
					    genw(b2, sizeof(b2), x->cap_gts, 0), x->now, x->cap);
			}
		}
		if (gpu && p->max_gts > 0 && up->max_width > 0 && p->max_width > up->max_width) {
			add_finding(c, NICFIT_SEV_WARNING, "gpu-slot-narrow", p->bdf, S_PCIE,
				    "Move the GPU to an x16 slot.",
				    "%s sits in a x%d slot (port %s) but has x%d: ≈ %.0f instead of ≈ %.0f Gb/s "
				    "to the CPU.", d->label, up->max_width, up->bdf, p->max_width,
				    rate(c, x->cap_gts, up->max_width, NULL), L->own_max_gbps);
		} else if (gpu && p->max_gts > 0 && up->max_gts > 0 && up->max_gts < p->max_gts) {
			add_finding(c, NICFIT_SEV_INFO, "gpu-slot-older-gen", p->bdf, S_PCIE,
				    "Nothing to fix in this server; a newer platform gives the GPU its full link.",
				    "%s (%s) runs at the slot's %s: ≈ %.0f Gb/s to the CPU instead of ≈ %.0f.",
				    d->label, genw(b1, sizeof(b1), p->max_gts, p->max_width),
				    genw(b2, sizeof(b2), up->max_gts, min_known_i(up->max_width, p->max_width)),
				    x->cap, L->own_max_gbps);
		}
	}
	/* Links further up: downtrained, or narrower than the device. */
	for (k = 1; k < nh; k++) {
		struct hop *x = &h[k];
		const struct nicfit_pcidev *up = P(c, x->up), *dn = P(c, x->down);

		if (!c->seen_link[x->down] &&
		    ((x->cur_w > 0 && x->cap_w > 0 && x->cur_w < x->cap_w) ||
		     (x->cur_gts > 0 && x->cap_gts > 0 && x->cur_gts < x->cap_gts))) {
			c->seen_link[x->down] = 1;
			add_finding(c, NICFIT_SEV_WARNING, "link-downtrained", dn->bdf, S_PCIE,
				    "Check the cable or riser between the two ports and the BIOS link speed "
				    "setting; reseat the switch board if there is one.",
				    "The link from %s down to %s negotiated %s though both ends support %s "
				    "(≈ %.0f instead of ≈ %.0f Gb/s); everything below %s shares it.",
				    up->bdf, dn->bdf, genw(b1, sizeof(b1), x->cur_gts, x->cur_w),
				    genw(b2, sizeof(b2), x->cap_gts, x->cap_w), x->now, x->cap, dn->bdf);
		}
	}
	if (gpu && min_cap >= 1 && L->own_max_gbps > 0 && h[min_cap].cap < L->own_max_gbps - 0.01) {
		struct hop *x = &h[min_cap];
		int narrower = x->cap_w > 0 && p->max_width > 0 && x->cap_w < p->max_width;

		add_finding(c, narrower ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO, "path-narrower", p->bdf,
			    S_PCIE,
			    narrower ? "Use a slot whose switch or riser has the GPU's full width to the CPU."
				     : "A platform limit: nothing to fix unless another slot has a faster path.",
			    "%s (%s) reaches the CPU through the %s link above %s: ≈ %.0f Gb/s instead of "
			    "≈ %.0f.", d->label, genw(b1, sizeof(b1), p->max_gts, p->max_width),
			    genw(b3, sizeof(b3), x->cap_gts, x->cap_w), P(c, x->down)->bdf, x->cap,
			    L->own_max_gbps);
	}
}

/* ---- network cards -------------------------------------------------------------- */

static int same_card(const struct nicfit_pcidev *a, const struct nicfit_pcidev *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev;
}

static const char *rdma_driver_for(const char *drv)
{
	if (!strcmp(drv, "mlx5_core"))
		return "mlx5_ib";
	if (!strcmp(drv, "mlx4_core") || !strcmp(drv, "mlx4_en"))
		return "mlx4_ib";
	if (!strcmp(drv, "ice") || !strcmp(drv, "i40e"))
		return "irdma";
	if (!strcmp(drv, "bnxt_en"))
		return "bnxt_re";
	return NULL;
}

/* Free slots on socket s, as "5 (Gen3 x8), 7 (Gen3 x8)"; "" when none known. */
/*
 * The free slots on socket s whose bridge can run at least min_gbps of raw
 * PCIe (0: every free slot), as "5 (Gen3 x8), 7 (Gen3 x8)".
 */
static void free_slots_min(const struct ctx *c, int s, double min_gbps, char *out, size_t n)
{
	const struct nicfit_topo *t = c->t;
	size_t len = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < t->nslots; i++) {
		const struct nicfit_pcislot *sl = &t->slots[i];
		const struct nicfit_pcidev *b;
		int numa, gen;
		char g[32];

		if (sl->pci >= 0 || sl->bridge < 0)
			continue;
		numa = nicfit_topo_numa_of(t, sl->bridge);
		if (numa < 0 || nicfit_topo_socket_of_node(t, numa) != s)
			continue;
		b = &t->pci[sl->bridge];
		gen = nicfit_pcie_gen_from_gts(b->max_gts);
		if (min_gbps > 0 && (gen < 1 || b->max_width < 1 ||
				     nicfit_pcie_gts(gen) * b->max_width *
				     (gen <= 2 ? 0.8 : 128.0 / 130.0) < min_gbps))
			continue;
		len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s (%s)", len ? ", " : "",
					sl->name, genw(g, sizeof(g), b->max_gts, b->max_width));
		if (len >= n)
			break;
	}
}

static void free_slots(const struct ctx *c, int s, char *out, size_t n)
{
	free_slots_min(c, s, 0, out, n);
}

static double port_rate_now(const struct ctx *c, int pci, int *up)
{
	const struct nicfit_topo *t = c->t;
	double sum = 0;
	int i, k, r = rdma_of(c, pci);

	*up = 0;
	if (r >= 0) {
		for (k = 0; k < t->rdma[r].nports; k++) {
			const struct nicfit_rdma_port *pt = &t->rdma[r].ports[k];

			if (pt->state == 4 && pt->have_rate) {
				(*up)++;
				sum += pt->rate.gbps;
			}
		}
		return sum;
	}
	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *nd = &t->net[i];

		if (nd->pci != pci || nd->is_virtual)
			continue;
		if (nd->carrier == 1 || (nd->carrier < 0 && !strcmp(nd->operstate, "up"))) {
			(*up)++;
			if (nd->speed_mbps > 0)
				sum += nd->speed_mbps / 1000.0;
		}
	}
	return sum;
}

static int rdma_ports(const struct ctx *c, int pci)
{
	int r = rdma_of(c, pci);

	return r >= 0 ? c->t->rdma[r].nports : 0;
}

static int any_ib(const struct ctx *c, int pci)
{
	int r = rdma_of(c, pci), k;

	if (r < 0)
		return 0;
	for (k = 0; k < c->t->rdma[r].nports; k++)
		if (!strcmp(c->t->rdma[r].ports[k].link_layer, "InfiniBand"))
			return 1;
	return 0;
}

static void judge_card(struct ctx *c, int di)
{
	struct nicfit_audit *a = c->a;
	struct nicfit_audit_dev *d = &a->devs[di];
	const struct nicfit_pcidev *p = P(c, d->pci);
	const struct nicfit_pci_id *id = nicfit_pci_id_find(p->vendor, p->device);
	struct nicfit_card card;
	struct nicfit_nic_fit all, one;
	struct nicfit_link_params lp;
	enum nicfit_proto proto;
	int k, funcs = 0, ports_seen = 0, ib = 0, has_rdma = 0, slot_gen, slot_w;
	double now = 0, max_port_now = 0;
	char b1[32], b2[256];

	for (k = di; k < a->ndevs; k++) {
		const struct nicfit_pcidev *q = P(c, a->devs[k].pci);
		double r;
		int u;

		if (a->devs[k].kind != NICFIT_DEV_NIC || !same_card(p, q))
			break;
		if (k != di)
			a->devs[k].card_lead = 0;
		funcs++;
		ports_seen += rdma_ports(c, a->devs[k].pci) > 1 ? rdma_ports(c, a->devs[k].pci) : 1;
		r = port_rate_now(c, a->devs[k].pci, &u);
		d->ports_up += u;
		now += r;
		if (u && r / u > max_port_now)
			max_port_now = r / u;
		ib |= any_ib(c, a->devs[k].pci);
		has_rdma |= a->devs[k].rdma;
	}
	d->card_lead = 1;
	d->card_functions = funcs;
	d->ports_now_gbps = now;
	if (d->cat_nic) {
		d->card_ports = d->cat_nic->ports;
		d->port_gbps = d->cat_nic->port_gbps;
	} else {
		d->card_ports = ports_seen;
		if (id && id->max_port_gbps > 0) {
			d->port_gbps = id->max_port_gbps;
			d->port_gbps_is_family_max = 1;
		} else {
			d->port_gbps = max_port_now;
		}
	}
	if (id && (id->flags & NICFIT_PCIID_RECOVERY))
		add_finding(c, NICFIT_SEV_CRITICAL, "nic-flash-recovery", p->bdf, S_IDS,
			    "Burn the firmware again with mstflint/flint (the card's firmware image for "
			    "its PSID); the card does not work until then.",
			    "%s reports a flash-recovery PCI ID (%04x:%04x): it has no working firmware.",
			    d->name, p->vendor, p->device);
	if (!p->driver[0] && !(id && (id->flags & NICFIT_PCIID_RECOVERY)))
		add_finding(c, NICFIT_SEV_WARNING, "nic-no-driver", p->bdf, NULL,
			    "Install or load the driver (`lspci -k -s` shows which one the card wants).",
			    "%s %s has no driver bound: it has no network interface.", d->label, d->name);
	if (!has_rdma && p->driver[0] && id && id->rdma && rdma_driver_for(p->driver)) {
		snprintf(b2, sizeof(b2), "Load %s (`modprobe %s`) and install rdma-core; "
			 "`rdma link` should then list the port.", rdma_driver_for(p->driver),
			 rdma_driver_for(p->driver));
		add_finding(c, NICFIT_SEV_INFO, "nic-rdma-not-loaded", p->bdf, S_IDS, b2,
			    "%s can do RDMA but has no RDMA device (driver %s is bound, its RDMA "
			    "driver is not loaded).", d->name, p->driver);
	}
	if (d->link.path_gbps < 0 || d->card_ports < 1 || d->port_gbps <= 0 || c->t->is_virtual ||
	    d->link.nominal)
		return;
	/* What the ports need against what the PCIe path gives. */
	slot_gen = d->link.limit_pci >= 0 ? d->link.limit_gen : gen_of(p->cur_gts > 0 ? p->cur_gts
										      : p->max_gts);
	slot_w = d->link.limit_pci >= 0 ? d->link.limit_width
					: (p->cur_width > 0 ? p->cur_width : p->max_width);
	memset(&card, 0, sizeof(card));
	card.pcie_gen = gen_of(p->max_gts) ? gen_of(p->max_gts) : slot_gen;
	card.pcie_width = p->max_width > 0 ? p->max_width : slot_w;
	card.ports = d->card_ports;
	card.port_gbps = d->port_gbps;
	card.ib_rate = ib && d->cat_nic ? d->cat_nic->ib_rate : NULL;
	proto = card.ib_rate ? NICFIT_PROTO_IB : has_rdma ? NICFIT_PROTO_ROCE : NICFIT_PROTO_TCP;
	nicfit_link_params_default(&lp);
	if (slot_gen < 1 || slot_w < 1 ||
	    nicfit_calc_nic(&card, slot_gen, slot_w, 0, proto, &c->a->pcie, &lp, &all, NULL) ||
	    nicfit_calc_nic(&card, slot_gen, slot_w, 1, proto, &c->a->pcie, &lp, &one, NULL))
		return;
	d->demand_gbps = all.ports_gbps;
	d->supply_gbps = all.pcie_gbps;
	d->card_limited_by = all.limited_by;
	genw(b1, sizeof(b1), nicfit_pcie_gts(slot_gen), slot_w);
	if (d->link.limit_pci < 0) {
		/* Nothing upstream narrows the card: its own interface is the limit. */
		if (one.pcie_gbps < one.ports_gbps - 0.01 || all.pcie_gbps < all.ports_gbps - 0.01) {
			int busy = d->ports_up >= 2 && all.pcie_gbps < now * all.port.efficiency - 0.01;

			add_finding(c, busy ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO, "nic-card-pcie-bound",
				    p->bdf, S_NIC_PCIE,
				    busy ? "Expect the PCIe figure shared between the ports; for full rate on "
					   "every port use a card with a faster host interface in a matching "
					   "slot (e.g. a PCIe 4.0 x16 part for 2 x 100G), or one port per card."
					 : "Nothing to fix while one port carries the traffic: the card's own "
					   "PCIe interface sets this ceiling.",
				    "%s: its own %s interface carries ≈ %.0f Gb/s, below its %d x %.0f Gb/s "
				    "of ports (≈ %.0f Gb/s)%s.", d->name, b1, all.pcie_gbps, d->card_ports,
				    d->port_gbps, all.ports_gbps,
				    busy ? "; the ports with link now share it" : "");
		}
		return;
	}
	if (one.pcie_gbps < one.ports_gbps - 0.01 &&
	    (d->cat_nic || (max_port_now > 0 && one.pcie_gbps < max_port_now * one.port.efficiency))) {
		char fix[640], fs[256];

		/* only slots that would really be faster: raw rate above this path's */
		free_slots_min(c, d->socket, one.pcie.raw_gbps * 1.01, fs, sizeof(fs));
		if (fs[0])
			snprintf(fix, sizeof(fix),
				 "Move the card to a faster slot on this socket (free: %s); otherwise a "
				 "card of the slot's class (≈ %.0f Gb/s) runs as fast and costs less.",
				 fs, one.pcie_gbps);
		else
			snprintf(fix, sizeof(fix),
				 "No free slot on this socket is faster than this path: a card of the "
				 "slot's class (≈ %.0f Gb/s) runs as fast and costs less; full rate needs "
				 "a %s slot.", one.pcie_gbps,
				 card.pcie_gen >= 4 ? "Gen4 x16" : "wider");
		/* the card works, at the slot's rate: a warning, as plan calls it */
		add_finding(c, NICFIT_SEV_WARNING, "nic-pcie-starved", p->bdf, S_NIC_PCIE, fix,
			    "%s: one %.0f Gb/s port needs ≈ %.0f Gb/s, but its PCIe path (%s%s%s) "
			    "gives ≈ %.0f Gb/s, so a port can never run at its rate.",
			    d->name, d->port_gbps, one.ports_gbps, b1,
			    d->link.limit_pci >= 0 ? " at " : "",
			    d->link.limit_pci >= 0 ? P(c, d->link.limit_pci)->bdf : "", one.pcie_gbps);
	} else if (one.pcie_gbps < one.ports_gbps - 0.01) {
		add_finding(c, NICFIT_SEV_WARNING, "nic-pcie-starved", p->bdf, S_NIC_PCIE,
			    "Identify the card (its ports' speed) and move it to a slot whose path is as "
			    "fast as the card's own interface.",
			    "%s: the family's ports run at up to %.0f Gb/s (≈ %.0f Gb/s of data); its "
			    "PCIe path (%s at %s) gives ≈ %.0f Gb/s.", d->name, d->port_gbps,
			    one.ports_gbps, b1, P(c, d->link.limit_pci)->bdf, one.pcie_gbps);
	} else if (all.pcie_gbps < all.ports_gbps - 0.01 && d->card_ports > 1) {
		int both = d->ports_up >= 2;

		add_finding(c, both ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO, "nic-ports-exceed-pcie",
			    p->bdf, S_NIC_PCIE,
			    "For full rate on every port use a Gen4 x16 slot (2 x 100G needs Gen4), or "
			    "cable one port per card and add a card.",
			    "%s: %d ports x %.0f Gb/s need ≈ %.0f Gb/s together, the %s path gives "
			    "≈ %.0f Gb/s%s.", d->name, d->card_ports, d->port_gbps, all.ports_gbps, b1,
			    all.pcie_gbps,
			    both ? "" : " (only one port has link now, so it runs at full rate)");
	}
}

/* A port running below what the card can do: cable, transceiver or switch port. */
static void judge_port_speed(struct ctx *c, const struct nicfit_audit_dev *d)
{
	const struct nicfit_topo *t = c->t;
	int i, r = rdma_of(c, d->pci), k;
	struct nicfit_speed ib;

	if (!d->cat_nic)
		return;
	if (r >= 0) {
		for (k = 0; k < t->rdma[r].nports; k++) {
			const struct nicfit_rdma_port *pt = &t->rdma[r].ports[k];
			double want = d->cat_nic->port_gbps;

			if (pt->state != 4 || !pt->have_rate)
				continue;
			if (!strcmp(pt->link_layer, "InfiniBand") && d->cat_nic->ib_rate &&
			    !nicfit_ib_rate(d->cat_nic->ib_rate, &ib))
				want = ib.gbps;
			if (pt->rate.gbps < want * 0.98)
				add_finding(c, NICFIT_SEV_WARNING, "nic-port-slow", t->rdma[r].name, S_NIC_PCIE,
					    "Check the cable or transceiver (it must be rated for the card's "
					    "speed) and the switch port's speed setting.",
					    "%s port %d runs at %g Gb/s (%dX %s); the card (%s) does %g Gb/s.",
					    t->rdma[r].name, pt->num, pt->rate.gbps, pt->rate.width,
					    pt->rate.speed[0] ? pt->rate.speed : "SDR", d->cat_nic->part, want);
		}
		return;
	}
	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *nd = &t->net[i];

		if (nd->pci != d->pci || nd->speed_mbps <= 0)
			continue;
		if (nd->speed_mbps / 1000.0 < d->cat_nic->port_gbps * 0.98)
			add_finding(c, NICFIT_SEV_WARNING, "nic-port-slow", nd->name, S_NIC_PCIE,
				    "Check the cable or transceiver and the switch port's speed.",
				    "%s runs at %g Gb/s; the card (%s) does %g Gb/s per port.", nd->name,
				    nd->speed_mbps / 1000.0, d->cat_nic->part, d->cat_nic->port_gbps);
	}
}

/* ---- RDMA ports ---------------------------------------------------------------- */

static int card_has_active(const struct ctx *c, const struct nicfit_pcidev *p)
{
	int i, k;

	for (i = 0; i < c->t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &c->t->rdma[i];

		if (r->pci < 0 || !same_card(P(c, r->pci), p))
			continue;
		for (k = 0; k < r->nports; k++)
			if (r->ports[k].state == 4)
				return 1;
	}
	return 0;
}

static int netdev_mtu(const struct ctx *c, int pci)
{
	int n = first_netdev(c, pci);

	return n >= 0 ? c->t->net[n].mtu : 0;
}

static int vpi_capable(const struct ctx *c, int pci)
{
	const struct nicfit_audit_dev *d = c->dev_of[pci] >= 0 ? &c->a->devs[c->dev_of[pci]] : NULL;
	const struct nicfit_pci_id *id = nicfit_pci_id_find(P(c, pci)->vendor, P(c, pci)->device);

	if (d && d->cat_nic)
		return d->cat_nic->vpi;
	return id && (id->rdma & NICFIT_PCIID_IB) && (id->rdma & NICFIT_PCIID_ROCE);
}

static void judge_rdma(struct ctx *c)
{
	const struct nicfit_topo *t = c->t;
	int i, k, nib = 0, neth = 0;
	char fix[512];

	for (i = 0; i < t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &t->rdma[i];

		if (r->pci < 0)
			continue;
		for (k = 0; k < r->nports; k++) {
			if (!vpi_capable(c, r->pci) || r->ports[k].state != 4)
				continue;
			if (!strcmp(r->ports[k].link_layer, "InfiniBand"))
				nib++;
			else if (!strcmp(r->ports[k].link_layer, "Ethernet"))
				neth++;
		}
	}
	for (i = 0; i < t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &t->rdma[i];
		const struct nicfit_pcidev *p;

		if (r->pci < 0)
			continue;
		p = P(c, r->pci);
		for (k = 0; k < r->nports; k++) {
			const struct nicfit_rdma_port *pt = &r->ports[k];
			int eth = !strcmp(pt->link_layer, "Ethernet");

			if (pt->state == 2 && !eth)
				add_finding(c, NICFIT_SEV_WARNING, "ib-no-subnet-manager", r->name, S_VPI,
					    "Run a subnet manager on the fabric: enable the switch's SM, or "
					    "`systemctl start opensm` on one host.",
					    "%s port %d is INIT: the link is up but no subnet manager has "
					    "configured it, so it passes no traffic.", r->name, pt->num);
			if (pt->state == 1) {
				int other = card_has_active(c, p);
				const char *why = pt->phys_state == 2 ? "no link partner: the cable is "
					"unplugged or faulty, or the switch port is down" :
					pt->phys_state == 3 ? "the port is disabled" : "no link";

				add_finding(c, other ? NICFIT_SEV_INFO : NICFIT_SEV_WARNING, "rdma-port-down",
					    r->name, NULL,
					    "If the port should be in use: check the cable and the switch port "
					    "(`ibstat`, `ip link`); if not, nothing to do.",
					    "%s port %d is DOWN (%s)%s.", r->name, pt->num, why,
					    other ? "; another port of the card is active" : "");
			}
			if (vpi_capable(c, r->pci) && pt->state != 4 && (eth ? nib : neth)) {
				int phys = r->nports > 1 ? pt->num : (int)p->fn + 1;
				char f0[16];

				snprintf(f0, sizeof(f0), "%.10s.0", p->bdf);
				snprintf(fix, sizeof(fix),
					 "If the port is cabled to the %s fabric: `mlxconfig -d %s set "
					 "LINK_TYPE_P%d=%d` (1 = InfiniBand, 2 = Ethernet), then reboot.",
					 eth ? "InfiniBand" : "Ethernet", f0, phys, eth ? 1 : 2);
				add_finding(c, NICFIT_SEV_WARNING, "vpi-port-mode", r->name, S_VPI, fix,
					    "%s port %d (card port %d) has no link in %s mode, while %d active "
					    "VPI port%s run%s %s: a VPI port in the wrong mode links to nothing "
					    "on the other fabric.", r->name, pt->num, phys,
					    eth ? "Ethernet" : "InfiniBand", eth ? nib : neth,
					    (eth ? nib : neth) == 1 ? "" : "s", (eth ? nib : neth) == 1 ? "s" : "",
					    eth ? "InfiniBand" : "Ethernet");
			}
			if (!eth || pt->state != 4)
				continue;
			{
				int nd = first_netdev(c, r->pci);
				const struct nicfit_netdev *n = nd >= 0 ? &c->t->net[nd] : NULL;

				if (n && n->pfc.state == NICFIT_PFC_READ && !n->pfc.pfc_en)
					add_finding(c, NICFIT_SEV_WARNING, "roce-no-pfc", r->name, S_ROCE,
						    "Turn PFC on for the RoCE priority on the NIC and every switch "
						    "port (commonly priority 3: `dcb pfc set dev IF prio-pfc 3:on` or "
						    "`mlnx_qos -i IF --pfc 0,0,0,1,0,0,0,0`, with DSCP trust), or run "
						    "the fabric lossy with ECN on NIC and switches.",
						    "%s port %d (%s) runs RoCE with PFC off on every priority: "
						    "without a lossless fabric (or ECN end to end) RoCE throughput "
						    "collapses under congestion.", r->name, pt->num, n->name);
			}
			if (pt->gid_types_known && !pt->ngid_v2_routable)
				add_finding(c, NICFIT_SEV_WARNING, "roce-no-routable-gid", r->name, S_ROCE,
					    "Give the port's interface an IPv4 (or global IPv6) address; NCCL "
					    "then finds the RoCE v2 GID itself (or set NCCL_IB_GID_INDEX).",
					    "%s port %d has no RoCE v2 GID with a routable address (%d GIDs, "
					    "all link-local or v1): RoCE traffic between hosts has no GID to use.",
					    r->name, pt->num, pt->ngids);
			{
				int mtu = netdev_mtu(c, r->pci), ib_mtu = 256, m;
				struct nicfit_link_params lp;
				struct nicfit_link_result now, best;
				struct nicfit_speed sp;

				if (mtu <= 0 || !pt->have_rate)
					continue;
				for (m = 4096; m >= 256; m /= 2)
					if (mtu - 60 >= m) {
						ib_mtu = m;
						break;
					}
				if (ib_mtu >= 4096)
					continue;
				memset(&sp, 0, sizeof(sp));
				sp.gbps = pt->rate.gbps;
				sp.kind = NICFIT_SPEED_ETH;
				nicfit_link_params_default(&lp);
				lp.rdma_mtu = ib_mtu;
				if (nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &lp, &now, NULL))
					continue;
				lp.rdma_mtu = 4096;
				if (nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &lp, &best, NULL))
					continue;
				add_finding(c, NICFIT_SEV_INFO, "roce-mtu", r->name,
					    "reference/bandwidth.md 2.3 (RoCE v2 headers)",
					    "Set the interface MTU to 4200 or more (9000 is common) on the host "
					    "and every switch port on the path.",
					    "%s port %d: interface MTU %d leaves RoCE a %d-byte path MTU "
					    "(RoCE v2 puts 60 bytes of IP, UDP, BTH, RETH and ICRC inside it): "
					    "≈ %.1f Gb/s of %g instead of ≈ %.1f at 4096.", r->name, pt->num,
					    mtu, ib_mtu, now.goodput_gbps, pt->rate.gbps, best.goodput_gbps);
			}
		}
	}
}

/* ---- GPU-NIC pairs --------------------------------------------------------------- */

static enum nicfit_path path_between(const struct ctx *c, int x, int y, int *known, int *lca)
{
	int cx[2 * NICFIT_TOPO_MAX_DEPTH], cy[2 * NICFIT_TOPO_MAX_DEPTH];
	int nx = nicfit_topo_chain(c->t, x, cx, (int)(sizeof(cx) / sizeof(cx[0])));
	int ny = nicfit_topo_chain(c->t, y, cy, (int)(sizeof(cy) / sizeof(cy[0])));
	int k = 0;

	*known = 1;
	*lca = -1;
	if (!nx || !ny)
		return NICFIT_PATH_SYS;
	if (P(c, cx[0])->hostbridge != P(c, cy[0])->hostbridge) {
		int a = nicfit_topo_numa_of(c->t, x), b = nicfit_topo_numa_of(c->t, y);

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
	return nx - k <= 2 && ny - k <= 2 ? NICFIT_PATH_PIX : NICFIT_PATH_PXB;
}

static void pairs(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i, j, n = 0;

	for (i = 0; i < a->ndevs; i++)
		for (j = 0; j < a->ndevs; j++)
			if ((a->devs[i].kind == NICFIT_DEV_GPU || a->devs[i].kind == NICFIT_DEV_ACCEL) &&
			    a->devs[j].kind == NICFIT_DEV_NIC && P(c, a->devs[j].pci)->physfn < 0)
				n++;
	a->pairs = calloc((size_t)(n ? n : 1), sizeof(*a->pairs));
	if (!a->pairs) {
		c->oom = 1;
		return;
	}
	for (i = 0; i < a->ndevs; i++) {
		struct nicfit_audit_dev *g = &a->devs[i];

		if (g->kind != NICFIT_DEV_GPU && g->kind != NICFIT_DEV_ACCEL)
			continue;
		for (j = 0; j < a->ndevs; j++) {
			struct nicfit_audit_dev *nic = &a->devs[j];
			struct nicfit_audit_pair *pr;

			if (nic->kind != NICFIT_DEV_NIC || P(c, nic->pci)->physfn >= 0)
				continue;
			pr = &a->pairs[a->npairs++];
			pr->gpu = i;
			pr->nic = j;
			pr->path = path_between(c, g->pci, nic->pci, &pr->locality_known, &pr->lca_pci);
			if (P(c, g->pci)->vendor != 0x10de)
				pr->gdr_reason = "not-nvidia";
			else if (!nic->rdma)
				pr->gdr_reason = "no-rdma";
			else if (pr->path > NICFIT_PATH_PXB)
				pr->gdr_reason = "distance";
			else if (!a->gdr_kernel)
				pr->gdr_reason = "no-kernel-support";
			else
				pr->gdr_reason = "ok";
			pr->gdr_default = !strcmp(pr->gdr_reason, "ok");
			/* nearest NIC: RDMA ones first when the host has any */
			if ((a->nrdma_nics && !nic->rdma))
				continue;
			if (g->best_nic < 0 || pr->path < g->best_path) {
				g->best_nic = j;
				g->best_path = pr->path;
			}
		}
	}
}

static void judge_gpus(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	char fix[640], fs1[256], fs2[256];
	int i, j, s;

	if (!a->nrdma_nics)
		return;
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *g = &a->devs[i], *n;
		int known = 1;

		if ((g->kind != NICFIT_DEV_GPU && g->kind != NICFIT_DEV_ACCEL) || g->best_nic < 0)
			continue;
		n = &a->devs[g->best_nic];
		for (j = 0; j < a->npairs; j++)
			if (a->pairs[j].gpu == i && a->pairs[j].nic == g->best_nic)
				known = a->pairs[j].locality_known;
		if (!known) {
			add_finding(c, NICFIT_SEV_INFO, "gpu-nic-locality-unknown", P(c, g->pci)->bdf,
				    S_TOPO_TRAPS, "See numa-locality-unknown.",
				    "%s and its nearest RDMA NIC %s hang off different host bridges and the "
				    "firmware gives no NUMA locality, so whether they share a socket is "
				    "unknown.", g->label, n->label);
		} else if (g->best_path == NICFIT_PATH_SYS) {
			free_slots(c, g->socket, fs1, sizeof(fs1));
			free_slots(c, n->socket, fs2, sizeof(fs2));
			snprintf(fix, sizeof(fix),
				 "Put an RDMA NIC on socket %d with the GPU%s%s%s, or move the GPU to "
				 "socket %d%s%s%s.", g->socket, fs1[0] ? " (free slots: " : "", fs1,
				 fs1[0] ? ")" : "", n->socket, fs2[0] ? " (free slots: " : "", fs2,
				 fs2[0] ? ")" : "");
			add_finding(c, NICFIT_SEV_WARNING, "gpu-nic-cross-socket", P(c, g->pci)->bdf,
				    S_TOPO_GDR, fix,
				    "%s (socket %d) has no RDMA NIC on its socket: the nearest, %s (socket "
				    "%d), is SYS, so its traffic crosses the inter-socket link and NCCL will "
				    "not use GPUDirect RDMA.", g->label, g->socket, n->label, n->socket);
		} else if (g->best_path >= NICFIT_PATH_PHB) {
			add_finding(c, NICFIT_SEV_INFO, "gpu-nic-no-gdr-path", P(c, g->pci)->bdf,
				    S_TOPO_GDR,
				    "GPUDirect RDMA by default needs the GPU and NIC under one PCIe switch "
				    "(PIX or PXB): a server with switches that pair GPUs and NICs, or set "
				    "NCCL_NET_GDR_LEVEL=PHB if this platform's root complex handles "
				    "peer-to-peer well.",
				    "%s's nearest RDMA NIC, %s, is %s: NCCL moves its network data through "
				    "host memory instead of GPUDirect RDMA.", g->label, n->label,
				    nicfit_path_name(g->best_path));
		}
	}
	/* RDMA cards on a socket without GPUs, while GPUs sit on another socket. */
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *n = &a->devs[i];
		int gpu_here = 0, gpu_elsewhere = -1;

		if (n->kind != NICFIT_DEV_NIC || !n->rdma || !n->card_lead || n->socket < 0)
			continue;
		for (j = 0; j < a->ndevs; j++) {
			const struct nicfit_audit_dev *g = &a->devs[j];

			if (g->kind != NICFIT_DEV_GPU && g->kind != NICFIT_DEV_ACCEL)
				continue;
			if (g->socket == n->socket)
				gpu_here = 1;
			else if (g->socket >= 0)
				gpu_elsewhere = g->socket;
		}
		if (gpu_here || gpu_elsewhere < 0)
			continue;
		s = gpu_elsewhere;
		free_slots(c, s, fs1, sizeof(fs1));
		snprintf(fix, sizeof(fix), "Move the card to a slot on socket %d%s%s%s.", s,
			 fs1[0] ? " (free slots there: " : "", fs1,
			 fs1[0] ? "; check each slot's width against the card)" : "");
		add_finding(c, NICFIT_SEV_WARNING, "nic-wrong-socket", P(c, n->pci)->bdf, S_TOPO_GDR, fix,
			    "%s %s is on socket %d, the GPUs are on socket %d.", n->label, n->name,
			    n->socket, s);
	}
}

/* ---- GPUDirect, ACS, IOMMU, config space ------------------------------------- */

static void judge_gdr(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;
	int i, close_pair = 0, nvidia = 0;

	for (i = 0; i < a->npairs; i++) {
		const struct nicfit_audit_pair *pr = &a->pairs[i];

		if (P(c, a->devs[pr->gpu].pci)->vendor == 0x10de && a->devs[pr->nic].rdma) {
			nvidia = 1;
			if (pr->path <= NICFIT_PATH_PXB)
				close_pair = 1;
		}
	}
	if (!nvidia || a->gdr_kernel)
		return;
	not_checked(c, "dma_buf",
		    "Whether GPUDirect RDMA can use DMA-BUF instead of nvidia_peermem is decided at run "
		    "time (NCCL calls ibv_reg_dmabuf_mr; the kernel needs CONFIG_PCI_P2PDMA): "
		    "sysfs does not show it.");
	if (!close_pair) {
		/* No pair is close enough for NCCL's default, but users raise
		 * NCCL_NET_GDR_LEVEL on such hosts: then the module matters. */
		add_finding(c, NICFIT_SEV_INFO, "gdr-no-peermem", "host", S_GDR_KERNEL,
			    "`modprobe nvidia_peermem` (or rely on DMA-BUF) before setting "
			    "NCCL_NET_GDR_LEVEL=PHB or NODE.",
			    "nvidia_peermem (or nv_peer_mem) is not loaded. No GPU-NIC pair here is close "
			    "enough for NCCL's default GPUDirect RDMA, but with NCCL_NET_GDR_LEVEL raised "
			    "it would need the module or DMA-BUF.");
		return;
	}
	add_finding(c, t->nvidia_driver ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO, "gdr-no-peermem",
		    "host", S_GDR_KERNEL,
		    "`modprobe nvidia_peermem` (and list it in /etc/modules-load.d/), or rely on DMA-BUF "
		    "(kernel with CONFIG_PCI_P2PDMA); NCCL's log then says 'GPU Direct RDMA Enabled'.",
		    "GPUDirect RDMA is disabled: GPU-NIC pairs are close enough for it, but neither "
		    "nvidia_peermem (/sys/module/nvidia_peermem/version) nor nv_peer_mem "
		    "(/sys/kernel/mm/memory_peers/nv_mem/version) is loaded%s.",
		    t->nvidia_driver ? "" : " (the NVIDIA driver is not loaded either)");
}

static void judge_acs(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;
	int i, k, sw;

	/* Mark redirecting ports between close GPU-NIC pairs: bit 2 = redirects, bit 4 = reported. */
	for (i = 0; i < a->npairs; i++) {
		const struct nicfit_audit_pair *pr = &a->pairs[i];
		int ends[2], e;

		if (pr->path > NICFIT_PATH_PXB)
			continue;
		ends[0] = a->devs[pr->gpu].pci;
		ends[1] = a->devs[pr->nic].pci;
		for (e = 0; e < 2; e++) {
			int chain[2 * NICFIT_TOPO_MAX_DEPTH];
			int n = nicfit_topo_chain(t, ends[e], chain, (int)(sizeof(chain) / sizeof(chain[0])));
			int below = 0;

			for (k = 0; k < n - 1; k++) {
				const struct nicfit_pcidev *b = P(c, chain[k]);

				if (chain[k] == pr->lca_pci)
					below = 1;
				else if (below && b->acs && (b->acs_ctrl & 0x000c))
					c->seen_link[chain[k]] |= 2;
			}
		}
	}
	/* One finding per switch (the parent of the redirecting ports). */
	for (sw = 0; sw < t->npci; sw++) {
		char ports[256], devs[256];
		size_t pl = 0, dl = 0;
		int n = 0;

		for (k = 0; k < t->npci; k++) {
			if (t->pci[k].parent != sw || !(c->seen_link[k] & 2) || (c->seen_link[k] & 4))
				continue;
			c->seen_link[k] |= 4;
			n++;
			if (pl < sizeof(ports))
				pl += (size_t)snprintf(ports + pl, sizeof(ports) - pl, "%s%s", pl ? ", " : "",
						       t->pci[k].bdf);
			for (i = 0; i < a->ndevs; i++) {
				int chain[2 * NICFIT_TOPO_MAX_DEPTH], m, j;

				if (a->devs[i].kind != NICFIT_DEV_GPU && !a->devs[i].rdma)
					continue;
				m = nicfit_topo_chain(t, a->devs[i].pci, chain,
						      (int)(sizeof(chain) / sizeof(chain[0])));
				for (j = 0; j < m; j++)
					if (chain[j] == k && dl < sizeof(devs))
						dl += (size_t)snprintf(devs + dl, sizeof(devs) - dl, "%s%s",
								       dl ? ", " : "", a->devs[i].label);
			}
		}
		if (!n)
			continue;
		add_finding(c, NICFIT_SEV_WARNING, "acs-redirect", t->pci[sw].bdf, S_ACS,
			    "Disable ACS redirection on these switch ports (the BIOS 'ACS' setting, or "
			    "`setpci -s PORT ECAP_ACS+6.w=0000` until reboot); keep the IOMMU off or in "
			    "passthrough (iommu=pt) when you do.",
			    "Switch %s redirects peer-to-peer requests to the root complex on %d port%s "
			    "(%s: ACS ReqRedir/CmpltRedir): GPUDirect traffic between %s goes up to "
			    "the CPU instead of across the switch, which slows or breaks it.",
			    t->pci[sw].bdf, n, n == 1 ? "" : "s", ports, devs);
	}
}

static void judge_config(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i;

	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = P(c, d->pci);

		if (d->kind != NICFIT_DEV_NIC || !d->card_lead || !p->cfg_pcie || d->link.nominal)
			continue;
		if (p->mps > 0 && p->mps < 256 && p->mps_cap >= 256) {
			struct nicfit_pcie_params pp = a->pcie;
			struct nicfit_pcie_result r128, r256;
			int gen = gen_of(p->max_gts);

			if (!gen || p->max_width < 1)
				continue;
			pp.mps = p->mps;
			if (nicfit_pcie_calc(gen, p->max_width, &pp, &r128, NULL))
				continue;
			pp.mps = 256;
			if (nicfit_pcie_calc(gen, p->max_width, &pp, &r256, NULL))
				continue;
			add_finding(c, NICFIT_SEV_INFO, "pcie-mps-small", p->bdf, S_PCIE,
				    "Set MaxPayload to 256 or more in the BIOS (the whole path negotiates "
				    "down to its smallest port).",
				    "%s runs with MaxPayload %d B (it supports %d): posted writes carry "
				    "≈ %.0f instead of ≈ %.0f Gb/s on its %s link.", d->label, p->mps,
				    p->mps_cap, r128.write_gbps, r256.write_gbps,
				    genw((char[32]){ 0 }, 32, p->max_gts, p->max_width));
		}
		if (p->mrrs > 0 && p->mrrs < 1024)
			add_finding(c, NICFIT_SEV_INFO, "pcie-mrrs-small", p->bdf,
				    "reference/anchors.md 1.6 (NIC configuration operator)",
				    "Raise MaxReadReq (NVIDIA's NIC configuration operator sets 4096 B for "
				    "throughput; `mlnx_tune -p HIGH_THROUGHPUT`, or setpci as root).",
				    "%s has MaxReadReq %d B: large DMA reads are split into more requests.",
				    d->label, p->mrrs);
	}
}

static void judge_iommu(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	char list[256];
	const char *type = NULL;
	size_t len = 0;
	int i, n = 0;

	list[0] = '\0';
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = P(c, d->pci);

		if (d->kind != NICFIT_DEV_GPU && !(d->kind == NICFIT_DEV_NIC && d->rdma))
			continue;
		if (strncmp(p->iommu_type, "DMA", 3))
			continue;
		if (!type)
			type = p->iommu_type;
		n++;
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "",
						d->label);
	}
	if (n)
		add_finding(c, NICFIT_SEV_INFO, "iommu-translated", "host", S_ACS,
			    "For GPUDirect and peer-to-peer, boot with iommu=pt (passthrough) or turn the "
			    "IOMMU off in the BIOS if nothing needs it.",
			    "The IOMMU translates DMA for %s (group type %s): GPU peer-to-peer and "
			    "GPUDirect RDMA traffic goes through it.", list, type);
}

/* ---- host ------------------------------------------------------------------------ */

static void judge_host(struct ctx *c)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;
	int i, unknown = 0, any_link = 0, linked = 0, roce = 0, vpd_hidden = 0, nvidia = 0;
	char list[256];
	size_t len = 0;

	list[0] = '\0';
	if (t->is_virtual)
		add_finding(c, NICFIT_SEV_INFO, "host-virtual", "host", "reference/topology.md 3.2",
			    "Judge links and locality on the physical host; on a cloud VM give NCCL the "
			    "provider's topology file (NCCL_TOPO_FILE).",
			    "This is a virtual machine (%s): PCIe links and NUMA locality are the "
			    "hypervisor's, not the hardware's, so link findings are skipped.",
			    t->virtual_why);
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = P(c, d->pci);

		if (d->kind != NICFIT_DEV_GPU && d->kind != NICFIT_DEV_NIC && d->kind != NICFIT_DEV_ACCEL)
			continue;
		if (p->have & NICFIT_HAVE_LINK_FILES)
			any_link = 1;
		if (p->have & (NICFIT_HAVE_CUR_SPEED | NICFIT_HAVE_MAX_SPEED))
			linked = 1;
		if (p->vendor == 0x10de)
			nvidia++;
		if (d->kind == NICFIT_DEV_NIC && p->vpd_state == 2)
			vpd_hidden = 1;
		if (d->kind == NICFIT_DEV_GPU && !p->driver[0] && p->physfn < 0)
			add_finding(c, NICFIT_SEV_WARNING, "gpu-no-driver", p->bdf, NULL,
				    "Install the GPU driver (for NVIDIA: the datacenter driver, with "
				    "nvidia_peermem for GPUDirect RDMA).",
				    "%s %s has no driver bound.", d->label, d->name);
		if (t->nnuma > 1 && d->numa < 0) {
			unknown++;
			if (len < sizeof(list))
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
							len ? ", " : "", d->label);
		}
	}
	if (unknown && !t->is_virtual)
		add_finding(c, NICFIT_SEV_WARNING, "numa-locality-unknown", "host", S_TOPO_TRAPS,
			    "Enable NUMA / ACPI SRAT in the BIOS (and sub-NUMA clustering consistently), "
			    "update the firmware; until then pin NCCL with NCCL_TOPO_FILE.",
			    "The firmware gives no NUMA locality (numa_node -1) for %s on a host with %d "
			    "NUMA nodes: NCCL cannot tell which socket they belong to.", list, t->nnuma);
	for (i = 0; i < t->nrdma; i++) {
		int k, nd;

		for (k = 0; k < t->rdma[i].nports; k++)
			if (!strcmp(t->rdma[i].ports[k].link_layer, "Ethernet")) {
				nd = t->rdma[i].pci >= 0 ? first_netdev(c, t->rdma[i].pci) : -1;
				roce |= nd >= 0 && t->net[nd].pfc.state == NICFIT_PFC_READ ? 1 : 2;
			}
	}
	if ((a->ngpus || a->naccels) && a->nnics && !a->nrdma_nics)
		add_finding(c, NICFIT_SEV_INFO, "no-rdma-nic", "host", S_SEED,
			    "For training or a model split across servers add a back-end RDMA NIC "
			    "(RoCE v2 on a lossless switch, or InfiniBand) on the GPUs' socket: "
			    "`nicfit plan` sizes it.",
			    "No RDMA NIC: fine for inference on one server (a front-end network is "
			    "enough), not for jobs that span servers.");
	/* Intel 700-series ports without link: the module coding trap. */
	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *nd = &t->net[i];

		if (nd->pci < 0 || nd->is_virtual || strcmp(P(c, nd->pci)->driver, "i40e") ||
		    nd->carrier == 1 || !strcmp(nd->operstate, "up"))
			continue;
		add_finding(c, NICFIT_SEV_INFO, "intel-700-no-link", nd->name, S_X710,
			    "If a module or DAC is plugged in: `dmesg | grep -i 'unsupported SFP'`; "
			    "700-series firmware only links with Intel-coded optics and DACs.",
			    "%s (Intel 700-series, driver i40e) has no link.", nd->name);
	}
	if (t->problems_total)
		add_finding(c, NICFIT_SEV_INFO, "sysfs-read-problems", "host", NULL,
			    "See read_problems in the JSON output; a damaged snapshot should be taken "
			    "again with `nicfit snapshot`.",
			    "%zu file%s could not be read or parsed (first: %s, %s); the audit used "
			    "what it could read.", t->problems_total, t->problems_total == 1 ? "" : "s",
			    t->nproblems ? t->problems[0].path : "?",
			    t->nproblems ? nicfit_sysfs_problem_text(t->problems[0].st,
								     t->problems[0].errnum) : "?");

	/* What sysfs cannot tell. */
	if (t->is_virtual)
		not_checked(c, "pcie_links", "The hypervisor's virtual PCIe ports report link "
			    "figures of its own choosing; check links on the physical host.");
	else if (a->ndevs && !any_link)
		not_checked(c, "pcie_links", "This kernel has no current_link_*/max_link_* files "
			    "(added in Linux 4.13): link speeds and widths are unknown. As root, "
			    "`lspci -vv` shows LnkCap/LnkSta.");
	else if (a->ndevs && !linked)
		not_checked(c, "pcie_links", "The link files report no speed ('Unknown').");
	if (!t->privileged && (a->ngpus || a->nnics)) {
		not_checked(c, "acs", "ACS redirection on the bridges between GPUs and NICs lives in "
			    "PCIe extended config space, which only root can read (sysfs gives other "
			    "users 64 bytes): run `sudo nicfit audit`.");
		not_checked(c, "mps_mrrs", "MaxPayload and MaxReadReq are in PCIe config space "
			    "(root only): run `sudo nicfit audit`.");
	}
	if (roce & 2)
		not_checked(c, "pfc_ecn", "Lossless RoCE (PFC on the RoCE priority, ECN) is NIC QoS and "
			    "switch configuration that sysfs does not show; nicfit asks the kernel's DCB "
			    "interface on the live host (a snapshot keeps its answer), and the driver "
			    "here did not tell: check with `mlnx_qos -i IF` or `dcb pfc show dev IF`, "
			    "and on the switch.");
	else if (roce)
		not_checked(c, "ecn", "PFC was read from the NIC; ECN marking and the switches' "
			    "lossless settings are not visible from the host: check the switch (PFC "
			    "and ECN on the RoCE priority).");
	if (nvidia >= 2 && a->ngpus >= 2)
		not_checked(c, "nvlink", "NVLink and NVSwitch connections are known only to the NVIDIA "
			    "driver (NVML): see `nvidia-smi topo -m` and `nvidia-smi nvlink -s`.");
	if (vpd_hidden)
		not_checked(c, "vpd", "Part numbers in VPD are readable only by root on most kernels: "
			    "cards were named from PCI IDs and firmware PSIDs.");
	if (a->nnics)
		not_checked(c, "transceivers", "Cable and module types and their temperatures need "
			    "ethtool's module EEPROM interface (`ethtool -m IF`), not sysfs.");
}

/* ---- driver -------------------------------------------------------------------- */

void nicfit_audit_sort_findings(struct nicfit_audit *a)
{
	int i, j;

	/* stable: findings of one severity keep the order they were made in */
	for (i = 1; i < a->nfindings; i++) {
		struct nicfit_audit_finding f = a->findings[i];

		for (j = i; j > 0 && a->findings[j - 1].sev < f.sev; j--)
			a->findings[j] = a->findings[j - 1];
		a->findings[j] = f;
	}
}

int nicfit_audit_ignored(const struct nicfit_audit *a, const struct nicfit_audit_finding *f)
{
	int i;

	for (i = 0; i < a->nignore; i++) {
		const char *pat = a->ignore[i], *at = strchr(pat, '@');
		size_t n = at ? (size_t)(at - pat) : strlen(pat);

		if (strlen(f->code) != n || strncmp(f->code, pat, n))
			continue;
		if (!at || !strcmp(at + 1, f->device))
			return 1;
	}
	return 0;
}

int nicfit_audit_run(const struct nicfit_topo *topo, const struct nicfit_catalog *cat,
		     const struct nicfit_audit_opts *opts, struct nicfit_audit **out,
		     struct nicfit_error *err)
{
	static const struct nicfit_audit_opts none;
	struct nicfit_audit *a;
	struct ctx c;
	int i, j;

	*out = NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.t = topo;
	c.cat = cat;
	c.o = opts ? opts : &none;
	a->topo = topo;
	a->cat = cat;
	a->ignore = c.o->ignore;
	a->nignore = c.o->nignore;
	a->all = c.o->all;
	if (c.o->pcie)
		a->pcie = *c.o->pcie;
	else
		nicfit_pcie_params_default(&a->pcie);
	a->gdr_kernel = topo->nv_mem || topo->nv_mem_nc || topo->nvidia_peermem;
	a->nsockets = topo->npackages;
	if (choose_devices(&c))
		goto out_nomem;
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (P(&c, d->pci)->physfn >= 0)
			continue;
		a->ngpus += d->kind == NICFIT_DEV_GPU;
		a->naccels += d->kind == NICFIT_DEV_ACCEL;
		if (d->kind == NICFIT_DEV_NIC) {
			int lead = i == 0 || a->devs[i - 1].kind != NICFIT_DEV_NIC ||
				   !same_card(P(&c, a->devs[i - 1].pci), P(&c, d->pci));

			a->nnics += lead;
			for (j = i; lead && j < a->ndevs && a->devs[j].kind == NICFIT_DEV_NIC &&
				    same_card(P(&c, a->devs[j].pci), P(&c, d->pci)); j++)
				if (a->devs[j].rdma) {
					a->nrdma_nics++;
					break;
				}
		}
	}
	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].kind != NICFIT_DEV_BRIDGE && a->devs[i].kind != NICFIT_DEV_HOST)
			judge_link(&c, &a->devs[i]);
	for (i = 0; i < a->ndevs; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];

		if (d->kind != NICFIT_DEV_NIC || P(&c, d->pci)->physfn >= 0)
			continue;
		if (i == 0 || a->devs[i - 1].kind != NICFIT_DEV_NIC ||
		    !same_card(P(&c, a->devs[i - 1].pci), P(&c, d->pci)))
			judge_card(&c, i);
		judge_port_speed(&c, d);
	}
	judge_rdma(&c);
	pairs(&c);
	judge_gpus(&c);
	judge_gdr(&c);
	judge_acs(&c);
	judge_config(&c);
	judge_iommu(&c);
	judge_host(&c);
	if (c.oom)
		goto out_nomem;
	nicfit_audit_sort_findings(a);
	for (i = 0; i < a->nfindings; i++) {
		a->findings[i].ignored = nicfit_audit_ignored(a, &a->findings[i]);
		if (a->findings[i].ignored)
			a->nignored++;
		else
			a->counts[a->findings[i].sev]++;
	}
	free(c.dev_of);
	free(c.seen_link);
	*out = a;
	return 0;
out_nomem:
	free(c.dev_of);
	free(c.seen_link);
	nicfit_audit_free(a);
	return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
}

void nicfit_audit_free(struct nicfit_audit *a)
{
	if (!a)
		return;
	free(a->devs);
	free(a->pairs);
	free(a->findings);
	free(a);
}

int nicfit_audit_exit_code(const struct nicfit_audit *a)
{
	if (a->counts[NICFIT_SEV_CRITICAL])
		return 2;
	return a->counts[NICFIT_SEV_WARNING] ? 1 : 0;
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
	rc = nicfit_pciids_lookup(path, q, (size_t)n, err);
	for (i = 0, n = 0; !rc && i < a->ndevs; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];

		if (strcmp(d->name_source, "class"))
			continue;
		if (q[n].device_name[0]) {
			const char *vn = nicfit_pci_vendor_name(q[n].vendor);

			snprintf(d->name, sizeof(d->name), "%s %s", vn ? vn : q[n].vendor_name,
				 q[n].device_name);
			d->name_source = "pci.ids";
		}
		n++;
	}
	free(q);
	return rc;
}
