/*
 * audit_link.c - PCIe links (see audit_int.h): the path of each device up
 * to its host bridge, the narrowest link on it and the bridge that limits
 * it, and the findings about links that trained below what both ends can
 * do; the free slots a fix may point at; MaxPayload and MaxReadReq of
 * network cards. What a card needs from its path is audit_card.c's.
 */
#include <stdio.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/fmt_int.h"
#include "core/pciids_int.h"

/* PCIe line encoding: Gen1-2 carry 8 bits in 10, Gen3 and later 128 in 130. */
#define PCIE_ENC_8B10B 0.8
#define PCIE_ENC_128B130B (128.0 / 130.0)

/*
 * MaxPayload and MaxReadReq below these are worth a note. 256 B payloads
 * are what server root complexes offer and nearly halve the header
 * overhead of 128 B; 1024 B read requests are the least that keeps a NIC's
 * DMA reads from being split into many small requests (NVIDIA's NIC
 * configuration operator goes to 4096 B, docs/reference/anchors.md 1.6).
 */
#define MPS_GOOD 256
#define MRRS_GOOD 1024

/* The widest link nicfit_pcie_calc models (x32). */
#define PCIE_MAX_WIDTH 32

static int gen_of(double gts)
{
	return nicfit_pcie_gen_from_gts(gts);
}

double nicfit__audit_rate(const struct nicfit__audit_ctx *c, double gts, int width, double *raw)
{
	struct nicfit_pcie_result r;
	int gen = gen_of(gts);

	if (raw)
		*raw = -1;
	if (!gen || width < 1 || width > PCIE_MAX_WIDTH ||
	    nicfit_pcie_calc(gen, width, &c->a->pcie, &r, NULL))
		return -1;
	if (raw)
		*raw = r.raw_gbps;
	return r.effective_gbps;
}

const char *nicfit__audit_genw(char *buf, size_t n, double gts, int width)
{
	int g = gen_of(gts);

	if (g && width)
		nicfit__fmt(buf, n, "Gen%d x%d", g, width);
	else if (g)
		nicfit__fmt(buf, n, "Gen%d", g);
	else if (width)
		nicfit__fmt(buf, n, "x%d", width);
	else
		nicfit__fmt(buf, n, "unknown");
	return buf;
}

void nicfit__audit_free_slots(const struct nicfit__audit_ctx *c, int s, double min_gbps,
			      char *out, size_t n)
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
				     (gen <= 2 ? PCIE_ENC_8B10B : PCIE_ENC_128B130B) < min_gbps))
			continue;
		len += (size_t)nicfit__fmt(out + len, len < n ? n - len : 0, "%s%s (%s)",
					len ? ", " : "", sl->name,
					nicfit__audit_genw(g, sizeof(g), b->max_gts, b->max_width));
		if (len >= n)
			break;
	}
}

/* ---- the path ---------------------------------------------------------------- */

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
	const struct nicfit_pci_id *id = nicfit__pci_id_find(p->vendor, p->device);

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
	int both_w, both_gts;    /* both ends are known to reach the capability */
};

/* A device's links up to its host bridge, its own link first. */
struct path {
	struct hop h[2 * NICFIT_TOPO_MAX_DEPTH];
	int nh;
	int min_now, min_cap;    /* the narrowest hop as negotiated, and as capable; -1 */
};

/* The links from the device up to its host bridge, device's own link first. */
static int hops_of(const struct nicfit__audit_ctx *c, int pci, struct hop *h, int max,
		   int *nominal)
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
		/* a port without max_link_* files can still show what it runs */
		x->both_gts = e->max_gts > 0 && (p->max_gts > 0 || p->cur_gts >= x->cap_gts);
		x->both_w = e->max_width > 0 && (p->max_width > 0 || p->cur_width >= x->cap_w);
		x->cur_gts = e->cur_gts > 0 ? e->cur_gts : p->cur_gts;
		x->cur_w = e->cur_width > 0 ? e->cur_width : p->cur_width;
	}
	return nh;
}

static int is_gpu(const struct nicfit_audit_dev *d)
{
	return d->kind == NICFIT_DEV_GPU || d->kind == NICFIT_DEV_ACCEL;
}

/*
 * Fill d->link from the device's path: its own figures, the rate of each
 * hop as negotiated and as capable, the narrowest of each, and the bridge
 * that limits the device below its own capability. A GPU's own link at a
 * lower speed than it can run is taken at full speed (GPUs downclock idle
 * links) and marked idle. Returns 1 when the links are worth judging: not
 * on a virtual machine (a hypervisor's ports report what it likes, so the
 * figures are dropped) and not inside a chipset (nominal figures).
 */
static int measure_path(const struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d,
			struct path *pa)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	struct nicfit_audit_link *L = &d->link;
	struct hop *h = pa->h;
	int k;

	L->cur_gts = p->cur_gts;
	L->max_gts = p->max_gts;
	L->cur_width = p->cur_width;
	L->max_width = p->max_width;
	L->path_gbps = L->path_raw_gbps = L->path_max_gbps = L->own_max_gbps = -1;
	L->limit_pci = -1;
	pa->nh = hops_of(c, d->pci, h, (int)(sizeof(pa->h) / sizeof(pa->h[0])), &L->nominal);
	pa->min_now = pa->min_cap = -1;
	L->hops = pa->nh;
	L->known = pa->nh > 0 || (p->have & (NICFIT_HAVE_CUR_SPEED | NICFIT_HAVE_MAX_SPEED));
	L->own_max_gbps = nicfit__audit_rate(c, p->max_gts, p->max_width, NULL);
	for (k = 0; k < pa->nh; k++) {
		struct hop *x = &h[k];
		double g = x->cur_gts > 0 ? x->cur_gts : x->cap_gts;
		int w = x->cur_w > 0 ? x->cur_w : x->cap_w;

		if (k == 0 && is_gpu(d) && x->cur_gts > 0 && x->cap_gts > 0 &&
		    x->cur_gts < x->cap_gts) {
			x->idle = 1;
			L->idle = 1;
			g = x->cap_gts;
		}
		x->now = nicfit__audit_rate(c, g, w, &x->now_raw);
		x->cap = nicfit__audit_rate(c, x->cap_gts, x->cap_w, NULL);
		if (x->now >= 0 && (pa->min_now < 0 || x->now < h[pa->min_now].now))
			pa->min_now = k;
		if (x->cap >= 0 && (pa->min_cap < 0 || x->cap < h[pa->min_cap].cap))
			pa->min_cap = k;
	}
	if (pa->min_now >= 0) {
		L->path_gbps = h[pa->min_now].now;
		L->path_raw_gbps = h[pa->min_now].now_raw;
	}
	if (pa->min_cap >= 0)
		L->path_max_gbps = h[pa->min_cap].cap;
	if (pa->min_now >= 0 && L->own_max_gbps > 0 &&
	    L->path_gbps < L->own_max_gbps - RATE_SLACK_GBPS) {
		struct hop *x = &h[pa->min_now];

		L->limit_pci = x->up;
		L->limit_gen = gen_of(x->idle || x->cur_gts <= 0 ? x->cap_gts : x->cur_gts);
		L->limit_width = x->cur_w > 0 ? x->cur_w : x->cap_w;
	}
	if (c->t->is_virtual) {
		L->path_gbps = L->path_raw_gbps = L->path_max_gbps = -1;
		L->limit_pci = -1;
		return 0;
	}
	return !L->nominal;
}

/*
 * link-width-downtrained: the device's own link has fewer lanes than both
 * the device and its port can run. Lanes are fixed at link training, and
 * a link that comes up narrow stays narrow until it is retrained: that is
 * a physical fault (seating, riser, cable), never power saving, so any
 * missing lane is a warning. Both ends must be known to reach the width
 * (from max_link_width, or a port's current width): a port that reports
 * nothing may be as narrow as the link (a switch port without link files
 * above a RAID card's function), and then no lane is missing.
 */
static void rule_link_width(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			    const struct hop *x)
{
	const struct nicfit_pcidev *p = P(c, d->pci);

	if (!(x->both_w && x->cur_w > 0 && x->cur_w < x->cap_w))
		return;
	nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_LINK_WIDTH_DOWNTRAINED, p->bdf,
			   S_PCIE,
			   "Reseat the card, check the riser and its cable; a link that trains "
			   "narrow is a physical fault. Compare with `lspci -vv -s` LnkSta as root.",
			   "%s %s negotiated x%d though the card and port %s both do x%d "
			   "(≈ %.0f instead of ≈ %.0f Gb/s).", d->label, d->name, x->cur_w,
			   P(c, x->up)->bdf, x->cap_w,
			   nicfit__audit_rate(c, x->cap_gts, x->cur_w, NULL), x->cap);
}

/*
 * gpu-link-idle, link-speed-downtrained: the device's own link runs at a
 * lower generation than both ends support. GPUs lower their link speed
 * when idle (docs/reference/topology.md 6), so for a GPU this is only a note to
 * re-check under load; any other device keeps its speed, and a slower one
 * is a BIOS setting or a riser (a warning). As for the width, both ends'
 * speeds must be known.
 */
static void rule_link_speed(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			    const struct hop *x)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	char b1[32], b2[32];

	if (!(x->both_gts && x->cur_gts > 0 && x->cur_gts < x->cap_gts))
		return;
	nicfit__audit_genw(b1, sizeof(b1), x->cur_gts, 0);
	nicfit__audit_genw(b2, sizeof(b2), x->cap_gts, 0);
	if (is_gpu(d))
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GPU_LINK_IDLE, p->bdf,
				   S_TOPO_TRAPS, p->vendor != PCI_VENDOR_NVIDIA ?
				   "Re-check under load (e.g. while a job runs, read the device's "
				   "current_link_speed in /sys/bus/pci/devices/); only a link that "
				   "stays low under load is a fault." :
				   "Re-check under load (e.g. while a job runs, or `nvidia-smi "
				   "--query-gpu=pcie.link.gen.current --format=csv`); only a link that "
				   "stays low under load is a fault.",
				   "%s's link is at %s now; it and its slot can run %s. GPUs lower "
				   "the link speed when idle, so this is not a fault by itself.",
				   d->label, b1, b2);
	else
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_LINK_SPEED_DOWNTRAINED, p->bdf,
				   S_PCIE,
				   "Check the BIOS PCIe speed setting of this slot (often forced to Gen3 "
				   "or 'Auto' on a riser), the riser, and reseat the card.",
				   "%s %s trained at %s though it and port %s both support %s "
				   "(≈ %.0f instead of ≈ %.0f Gb/s).", d->label, d->name, b1,
				   P(c, x->up)->bdf, b2, x->now, x->cap);
}

/*
 * gpu-slot-narrow, gpu-slot-older-gen: the slot (the port above the GPU)
 * is less than the GPU. Fewer lanes is a choice of slot and can be fixed
 * by moving the GPU (a warning); an older generation is the platform's
 * limit, which no slot of this server lifts (a note).
 */
static void rule_gpu_slot(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			  const struct hop *x)
{
	const struct nicfit_pcidev *p = P(c, d->pci), *up = P(c, x->up);
	char b1[32], b2[32];

	if (!is_gpu(d) || p->max_gts <= 0)
		return;
	if (up->max_width > 0 && p->max_width > up->max_width) {
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_SLOT_NARROW, p->bdf, S_PCIE,
				   "Move the GPU to an x16 slot.",
				   "%s sits in a x%d slot (port %s) but has x%d: ≈ %.0f instead of "
				   "≈ %.0f Gb/s to the CPU.", d->label, up->max_width, up->bdf,
				   p->max_width, nicfit__audit_rate(c, x->cap_gts, up->max_width, NULL),
				   d->link.own_max_gbps);
	} else if (up->max_gts > 0 && up->max_gts < p->max_gts) {
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GPU_SLOT_OLDER_GEN, p->bdf, S_PCIE,
				   "Nothing to fix in this server; a newer platform gives the GPU its "
				   "full link.",
				   "%s (%s) runs at the slot's %s: ≈ %.0f Gb/s to the CPU instead of "
				   "≈ %.0f.", d->label,
				   nicfit__audit_genw(b1, sizeof(b1), p->max_gts, p->max_width),
				   nicfit__audit_genw(b2, sizeof(b2), up->max_gts,
						      min_known_i(up->max_width, p->max_width)),
				   x->cap, d->link.own_max_gbps);
	}
}

/*
 * link-downtrained: a link further up the path (a switch's uplink, a
 * riser) negotiated fewer lanes or a lower speed than both its ends. Every
 * device below shares it, so it is reported once, at the link, however
 * many devices sit below; a warning, as for the device's own link.
 */
static void rule_uplinks(struct nicfit__audit_ctx *c, const struct path *pa)
{
	char b1[32], b2[32];
	int k;

	for (k = 1; k < pa->nh; k++) {
		const struct hop *x = &pa->h[k];
		const struct nicfit_pcidev *up = P(c, x->up), *dn = P(c, x->down);

		if (c->seen_link[x->down] ||
		    !((x->cur_w > 0 && x->cap_w > 0 && x->cur_w < x->cap_w) ||
		      (x->cur_gts > 0 && x->cap_gts > 0 && x->cur_gts < x->cap_gts)))
			continue;
		c->seen_link[x->down] = 1;
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_LINK_DOWNTRAINED, dn->bdf,
				   S_PCIE,
				   "Check the cable or riser between the two ports and the BIOS link "
				   "speed setting; reseat the switch board if there is one.",
				   "The link from %s down to %s negotiated %s though both ends support "
				   "%s (≈ %.0f instead of ≈ %.0f Gb/s); everything below %s shares it.",
				   up->bdf, dn->bdf,
				   nicfit__audit_genw(b1, sizeof(b1), x->cur_gts, x->cur_w),
				   nicfit__audit_genw(b2, sizeof(b2), x->cap_gts, x->cap_w), x->now,
				   x->cap, dn->bdf);
	}
}

/*
 * path-narrower: above its own slot, a GPU's path (a switch uplink, a
 * root port) is capable of less than the GPU itself, even with every link
 * trained fully. Fewer lanes than the GPU can be avoided by another slot
 * (a warning); only an older generation is the platform's limit (a note).
 */
static void rule_path_narrower(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			       const struct path *pa)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	const struct hop *x;
	char b1[32], b2[32];
	int narrower;

	if (!is_gpu(d) || pa->min_cap < 1 || d->link.own_max_gbps <= 0 ||
	    pa->h[pa->min_cap].cap >= d->link.own_max_gbps - RATE_SLACK_GBPS)
		return;
	x = &pa->h[pa->min_cap];
	narrower = x->cap_w > 0 && p->max_width > 0 && x->cap_w < p->max_width;
	nicfit__audit_find(c, narrower ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO,
			   NICFIT_CODE_PATH_NARROWER, p->bdf, S_PCIE,
			   narrower ? "Use a slot whose switch or riser has the GPU's full width to "
				      "the CPU."
				    : "A platform limit: nothing to fix unless another slot has a "
				      "faster path.",
			   "%s (%s) reaches the CPU through the %s link above %s: ≈ %.0f Gb/s "
			   "instead of ≈ %.0f.", d->label,
			   nicfit__audit_genw(b1, sizeof(b1), p->max_gts, p->max_width),
			   nicfit__audit_genw(b2, sizeof(b2), x->cap_gts, x->cap_w),
			   P(c, x->down)->bdf, x->cap, d->link.own_max_gbps);
}

/*
 * A device's link rules: its own link (width, speed, the slot against a
 * GPU) when the first hop is the device's own, then the links above it,
 * then a GPU's path as a whole. Nothing is judged on a VM or inside a
 * chipset, where the figures are not the hardware's (measure_path).
 */
void nicfit__audit_judge_link(struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d)
{
	struct path pa;

	if (!measure_path(c, d, &pa))
		return;
	if (pa.nh > 0 && pa.h[0].down == d->pci) {
		rule_link_width(c, d, &pa.h[0]);
		rule_link_speed(c, d, &pa.h[0]);
		rule_gpu_slot(c, d, &pa.h[0]);
	}
	rule_uplinks(c, &pa);
	rule_path_narrower(c, d, &pa);
}

/*
 * A bridge's figures (its own link, and what its path to the CPU carries)
 * for the device table and the JSON: measured as a device's are, judged
 * not at all - the devices below it are.
 */
void nicfit__audit_measure_link(struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d)
{
	struct path pa;

	(void)measure_path(c, d, &pa);
}

/* ---- config space ------------------------------------------------------------- */

/*
 * pcie-mps-small: a NIC runs with MaxPayload below MPS_GOOD though it
 * supports more. Every posted write (the NIC's DMA into memory) carries at
 * most MaxPayload bytes behind a fixed header, so 128 B payloads cost a
 * visible share of the link; the message gives both rates from the PCIe
 * model. A note: the card still works, and the BIOS sets it for the whole
 * path. Read from config space, so only as root. Returns -1 when the
 * payload is small but the link cannot be modelled: the card's config is
 * then left alone (MaxReadReq too), as it always has been.
 */
static int rule_mps(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	struct nicfit_pcie_params pp = c->a->pcie;
	struct nicfit_pcie_result small, good;
	int gen = gen_of(p->max_gts);
	char b[32];

	if (!(p->mps > 0 && p->mps < MPS_GOOD && p->mps_cap >= MPS_GOOD))
		return 0;
	if (!gen || p->max_width < 1)
		return -1;
	pp.mps = p->mps;
	if (nicfit_pcie_calc(gen, p->max_width, &pp, &small, NULL))
		return -1;
	pp.mps = MPS_GOOD;
	if (nicfit_pcie_calc(gen, p->max_width, &pp, &good, NULL))
		return -1;
	nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_PCIE_MPS_SMALL, p->bdf, S_PCIE,
			   "Set MaxPayload to 256 or more in the BIOS (the whole path negotiates "
			   "down to its smallest port).",
			   "%s runs with MaxPayload %d B (it supports %d): posted writes carry "
			   "≈ %.0f instead of ≈ %.0f Gb/s on its %s link.", d->label, p->mps,
			   p->mps_cap, small.write_gbps, good.write_gbps,
			   nicfit__audit_genw(b, sizeof(b), p->max_gts, p->max_width));
	return 0;
}

/*
 * pcie-mrrs-small: a NIC with MaxReadReq below MRRS_GOOD splits large DMA
 * reads (what it sends) into more requests, each waiting for completions.
 * A tuning note, from NVIDIA's NIC configuration guidance (4096 B for
 * throughput). Read from config space, so only as root.
 */
static void rule_mrrs(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d)
{
	const struct nicfit_pcidev *p = P(c, d->pci);

	if (!(p->mrrs > 0 && p->mrrs < MRRS_GOOD))
		return;
	nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_PCIE_MRRS_SMALL, p->bdf, S_NIC_TUNING,
			   p->vendor == 0x15b3 ?
			   "Raise MaxReadReq (NVIDIA's NIC configuration operator sets 4096 B for "
			   "throughput; `mlnx_tune -p HIGH_THROUGHPUT`, or setpci as root)." :
			   "Raise MaxReadReq to 4096 B with setpci as root (NVIDIA's NIC "
			   "configuration operator sets 4096 B on its cards for throughput; check "
			   "the card vendor's tuning guide for its own value).",
			   "%s has MaxReadReq %d B: large DMA reads are split into more requests.",
			   d->label, p->mrrs);
}

/*
 * Config space of each network card's first function, when it could be
 * read (root) and the card is not a chipset function with nominal figures.
 */
void nicfit__audit_judge_config(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i;

	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = P(c, d->pci);

		if (d->kind != NICFIT_DEV_NIC || !d->card_lead || !p->cfg_pcie || d->link.nominal)
			continue;
		if (rule_mps(c, d) == 0)
			rule_mrrs(c, d);
	}
}
