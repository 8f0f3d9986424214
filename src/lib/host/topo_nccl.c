/*
 * topo_nccl.c - the host model as an NCCL topology file
 * (NCCL_TOPO_FILE): `nicfit audit --format nccl-topo`. A VM or container
 * that hides the PCI tree can be given the real one.
 *
 * The layout follows NCCL's own reader and dumper (src/graph/xml.cc,
 * topo.cc, as of NCCL 2.27) and the files Azure publishes for its GPU VMs
 * (github.com/Azure/azhpc-images, topology/nd*-topo.xml):
 *
 *	<system version="1">
 *	  <cpu numaid="0" affinity="0000ffff">       one per NUMA node, mask as sysfs cpumap
 *	    <pci busid="0000:16:00.0" class="0x060400" ... link_speed="32.0 GT/s PCIe" link_width="16">
 *	      <pci busid="0000:18:00.0" class="0x030200" .../>        a GPU
 *	      <pci busid="0000:19:00.0" class="0x020700" ...>         an RDMA NIC
 *	        <nic><net name="mlx5_0" speed="400000" port="1"/></nic>
 *
 * NCCL climbs the PCI tree two levels at a time from a device (xml.cc,
 * ncclTopoGetXmlFromSys: "Rewind two /"), so a device hangs under the
 * upstream port of the switch above it, a switch upstream port under the
 * next upstream port or under the CPU, and root and downstream ports never
 * appear; this writer places every device the same way. Left out, for NCCL
 * to fill on the host it runs on (xmlInitAttr keeps what the file gives):
 * the <gpu> elements (NVML), the net "dev" index (NCCL renumbers it), "gdr",
 * "maxconn" and "guid" (the net plugin), and the CPU's arch, vendor and
 * model (cpuid), which the host model does not hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/buf.h"
#include "nicfit/topo.h"
#include "nicfit/units.h"
#include "core/text_int.h"

/* The most CPUs an affinity mask is written for (NCCL's cpuset holds 1024 on x86). */
#define NCCLTOPO_MAX_CPUS 4096

/* The function NCCL hangs pci i under: two levels up, -1 for the CPU. */
static int nccl_parent(const struct nicfit_topo *t, int i)
{
	int p1 = t->pci[i].parent;

	if (p1 < 0 || t->pci[p1].parent < 0)
		return -1;
	return t->pci[p1].parent;
}

/* A port NCCL's IB transport uses: ACTIVE, or of unknown state (init.cc skips the others). */
static int port_used(const struct nicfit_rdma_port *pt)
{
	return pt->state <= 0 || pt->state == 4;
}

/*
 * The PCI function NCCL files function i's nets under: function 0 of the
 * same device. NCCL ends each HCA's sysfs path in '0' (net_ib, "Merge
 * multi-port NICs into the same PCI device"), so the two ports of a
 * dual-port ConnectX, one function each, become two nets of one <nic>.
 * i itself when it is function 0, not a NIC, or has no function 0.
 */
static int card_fn0(const struct nicfit_topo *t, int i)
{
	const char *bdf = t->pci[i].bdf;
	size_t n = strlen(bdf);
	int j;

	if (t->pci[i].kind == NICFIT_DEV_GPU || !n || bdf[n - 1] == '0')
		return i;
	for (j = 0; j < t->npci; j++)
		if (strlen(t->pci[j].bdf) == n && t->pci[j].bdf[n - 1] == '0' &&
		    !strncmp(t->pci[j].bdf, bdf, n - 1))
			return j;
	return i;
}

/* The RDMA devices of the card filed under function i with a port NCCL would use. */
static int active_nets(const struct nicfit_topo *t, int i)
{
	int r, k, n = 0;

	for (r = 0; r < t->nrdma; r++) {
		if (t->rdma[r].pci < 0 || card_fn0(t, t->rdma[r].pci) != i)
			continue;
		for (k = 0; k < t->rdma[r].nports; k++)
			if (port_used(&t->rdma[r].ports[k])) {
				n++;
				break;
			}
	}
	return n;
}

/* A device NCCL puts in its topology: a GPU, or a NIC function with an RDMA port in use. */
static int wanted_dev(const struct nicfit_topo *t, int i)
{
	return t->pci[i].kind == NICFIT_DEV_GPU || (card_fn0(t, i) == i && active_nets(t, i) > 0);
}

/* The NUMA node of the CPU a pci node sits under: that of its topmost ancestor in the file. */
static int cpu_of(const struct nicfit_topo *t, int i)
{
	int p;

	while ((p = nccl_parent(t, i)) >= 0)
		i = p;
	return t->pci[i].numa_node;
}

/* A CPU number at s, -1 when none; *end after it. */
static long cpu_num(const char *s, const char **end)
{
	long v;

	if (nicfit_scan_dec(s, 0, NCCLTOPO_MAX_CPUS * 16L, &v, end) != NICFIT_DEC_OK)
		return -1;
	return v;
}

/* sysfs cpumap form of a cpulist: "0-15,32-47" -> "0000ffff,0000ffff". */
static void affinity(struct nicfit_buf *b, const char *list)
{
	unsigned char bits[NCCLTOPO_MAX_CPUS / 8];
	const char *p = list;
	long hi = -1, a, z, c;
	int g, ngroups;

	memset(bits, 0, sizeof(bits));
	while (*p) {
		const char *q;

		a = cpu_num(p, &q);
		if (a < 0)
			break;
		z = a;
		if (*q == '-') {
			z = cpu_num(q + 1, &q);
			if (z < a)
				break;
		}
		for (c = a; c <= z && c < NCCLTOPO_MAX_CPUS; c++) {
			bits[c / 8] |= (unsigned char)(1u << (c % 8));
			if (c > hi)
				hi = c;
		}
		p = *q == ',' ? q + 1 : q;
		if (*q != ',')
			break;
	}
	ngroups = hi < 0 ? 1 : (int)(hi / 32) + 1;
	for (g = ngroups - 1; g >= 0; g--) {
		unsigned w = (unsigned)bits[g * 4] | (unsigned)bits[g * 4 + 1] << 8 |
			     (unsigned)bits[g * 4 + 2] << 16 | (unsigned)bits[g * 4 + 3] << 24;

		nicfit_buf_addf(b, "%08x%s", w, g ? "," : "");
	}
}

/* link_speed and link_width as NCCL reads them: the lesser of the device's and its port's maxima. */
static void link_attrs(struct nicfit_buf *b, const struct nicfit_topo *t, int i)
{
	const struct nicfit_pcidev *d = &t->pci[i], *port = d->parent >= 0 ? &t->pci[d->parent] : NULL;
	const char *speed = d->max_speed_text;
	int width = d->max_width;

	if (port && port->max_gts > 0 && (d->max_gts <= 0 || port->max_gts < d->max_gts))
		speed = port->max_speed_text;
	if (port && port->max_width > 0 && (width <= 0 || port->max_width < width))
		width = port->max_width;
	if (speed[0]) {
		nicfit_buf_puts(b, " link_speed=\"");
		nicfit__xml_escape(b, speed);
		nicfit_buf_puts(b, "\"");
	}
	if (width > 0)
		nicfit_buf_addf(b, " link_width=\"%d\"", width);
}

/* An RDMA port NCCL lists, in its order: by the function's bus id, then port. */
struct card_port {
	const struct nicfit_rdmadev *rd;
	const struct nicfit_rdma_port *pt;
};

static int cmp_card_port(const void *a, const void *b, const struct nicfit_topo *t)
{
	const struct card_port *x = a, *y = b;
	int c = strcmp(t->pci[x->rd->pci].bdf, t->pci[y->rd->pci].bdf);

	if (!c)
		c = strcmp(x->rd->name, y->rd->name);
	return c ? c : x->pt->num - y->pt->num;
}

/*
 * The nets of the card filed under function i: one per active port, as
 * NCCL's IB transport makes one net device per port (init.cc loops over
 * phys_port_cnt and keeps ACTIVE ports), each with that port's speed.
 * The port attribute is NCCL's: the verbs port number plus the count of
 * the card's ports listed before it ("realPort": 1 and 2 for the two
 * functions of a dual-port ConnectX). NCCL names a net after its device
 * and finds it in the file by that name, so a second active port of one
 * device (a single-function dual-port HCA) cannot have a net of its own:
 * NCCL's XML holds one node per name, and so does this file.
 */
static void nets(struct nicfit_buf *b, const struct nicfit_topo *t, int i, int depth)
{
	struct card_port v[64], tmp;
	int r, k, n = 0, a, c;

	for (r = 0; r < t->nrdma; r++) {
		if (t->rdma[r].pci < 0 || card_fn0(t, t->rdma[r].pci) != i)
			continue;
		for (k = 0; k < t->rdma[r].nports && n < (int)(sizeof(v) / sizeof(v[0])); k++)
			if (port_used(&t->rdma[r].ports[k])) {
				v[n].rd = &t->rdma[r];
				v[n++].pt = &t->rdma[r].ports[k];
			}
	}
	for (a = 1; a < n; a++)           /* insertion sort: a card has a handful of ports */
		for (c = a; c > 0 && cmp_card_port(&v[c - 1], &v[c], t) > 0; c--) {
			tmp = v[c];
			v[c] = v[c - 1];
			v[c - 1] = tmp;
		}
	if (!n)
		return;
	nicfit_buf_addf(b, "%*s<nic>\n", 2 * depth, "");
	for (a = 0; a < n; a++) {
		const struct nicfit_rdma_port *pt = v[a].pt;

		for (c = 0; c < a && v[c].rd != v[a].rd; c++)
			;
		if (c < a)
			continue;             /* a second port of the same device: same name */
		nicfit_buf_addf(b, "%*s<net name=\"", 2 * depth + 2, "");
		nicfit__xml_escape(b, v[a].rd->name);
		nicfit_buf_puts(b, "\"");
		if (pt->have_rate && pt->rate.gbps > 0)
			nicfit_buf_addf(b, " speed=\"%.0f\"", pt->rate.gbps * 1000);
		nicfit_buf_addf(b, " port=\"%d\"/>\n", pt->num + a);
	}
	nicfit_buf_addf(b, "%*s</nic>\n", 2 * depth, "");
}

static void pci_node(struct nicfit_buf *b, const struct nicfit_topo *t, const unsigned char *keep,
		     int i, int depth);

struct by_bdf {
	const char *bdf;
	int i;
};

static int cmp_bdf(const void *a, const void *b)
{
	return strcmp(((const struct by_bdf *)a)->bdf, ((const struct by_bdf *)b)->bdf);
}

/*
 * The children of parent (a pci index; -1: the CPU of NUMA node numa, or
 * with unknown set, of no listed node), in bus-id order as NCCL keeps
 * them (xml.cc: "Keep PCI sub devices ordered by PCI Bus ID").
 */
static void children(struct nicfit_buf *b, const struct nicfit_topo *t, const unsigned char *keep,
		     int parent, int numa, int unknown, int depth)
{
	struct by_bdf *v = malloc(sizeof(*v) * (size_t)t->npci);
	int i, n = 0, k;

	if (!v) {
		if (!b->err)
			b->err = NICFIT_E_NOMEM;
		return;
	}
	for (i = 0; i < t->npci; i++) {
		if (!keep[i] || nccl_parent(t, i) != parent)
			continue;
		if (parent < 0) {
			int c = cpu_of(t, i), known = 0;

			for (k = 0; k < t->nnuma; k++)
				known |= t->numa[k].id == c;
			if (unknown ? known : c != numa)
				continue;
		}
		v[n].bdf = t->pci[i].bdf;
		v[n++].i = i;
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_bdf);
	for (k = 0; k < n; k++)
		pci_node(b, t, keep, v[k].i, depth);
	free(v);
}

static void pci_node(struct nicfit_buf *b, const struct nicfit_topo *t, const unsigned char *keep,
		     int i, int depth)
{
	const struct nicfit_pcidev *d = &t->pci[i];
	int leaf = d->kind != NICFIT_DEV_BRIDGE;
	int has_nic = active_nets(t, i) > 0;

	nicfit_buf_addf(b, "%*s<pci busid=\"%s\" class=\"0x%06x\" vendor=\"0x%04x\" device=\"0x%04x\""
			" subsystem_vendor=\"0x%04x\" subsystem_device=\"0x%04x\"", 2 * depth, "",
			d->bdf, d->class_code, d->vendor, d->device, d->subvendor, d->subdevice);
	link_attrs(b, t, i);
	if (leaf && !has_nic) {
		nicfit_buf_puts(b, "/>\n");
		return;
	}
	nicfit_buf_puts(b, ">\n");
	if (has_nic)
		nets(b, t, i, depth + 1);
	if (!leaf)
		children(b, t, keep, i, 0, 0, depth + 1);
	nicfit_buf_addf(b, "%*s</pci>\n", 2 * depth, "");
}

int nicfit_nccl_topo_write(const struct nicfit_topo *t, struct nicfit_buf *b)
{
	unsigned char *keep;
	int i, n, p;

	if (!t->npci)
		return nicfit_buf_error(b);
	keep = calloc((size_t)t->npci, 1);
	if (!keep)
		return NICFIT_E_NOMEM;
	for (i = 0; i < t->npci; i++)
		if (wanted_dev(t, i))
			for (keep[i] = 1, p = nccl_parent(t, i); p >= 0; p = nccl_parent(t, p))
				keep[p] = 1;
	nicfit_buf_puts(b, "<system version=\"1\">\n");
	for (n = 0; n < t->nnuma; n++) {
		/* as in NCCL's own dumps, only CPUs with a device under them */
		for (i = 0; i < t->npci; i++)
			if (keep[i] && nccl_parent(t, i) < 0 && cpu_of(t, i) == t->numa[n].id)
				break;
		if (i == t->npci)
			continue;
		nicfit_buf_addf(b, "  <cpu numaid=\"%d\"", t->numa[n].id);
		if (t->numa[n].cpulist[0]) {
			nicfit_buf_puts(b, " affinity=\"");
			affinity(b, t->numa[n].cpulist);
			nicfit_buf_puts(b, "\"");
		}
		nicfit_buf_puts(b, ">\n");
		children(b, t, keep, -1, t->numa[n].id, 0, 2);
		nicfit_buf_puts(b, "  </cpu>\n");
	}
	/* devices whose NUMA node is unknown (-1), or not among the nodes listed */
	for (i = 0; i < t->npci; i++) {
		int c, known = 0;

		if (!keep[i] || nccl_parent(t, i) >= 0)
			continue;
		c = cpu_of(t, i);
		for (n = 0; n < t->nnuma; n++)
			known |= t->numa[n].id == c;
		if (!known)
			break;
	}
	if (i < t->npci) {
		nicfit_buf_puts(b, "  <cpu numaid=\"-1\">\n");
		children(b, t, keep, -1, -1, 1, 2);
		nicfit_buf_puts(b, "  </cpu>\n");
	}
	nicfit_buf_puts(b, "</system>\n");
	free(keep);
	return nicfit_buf_error(b);
}
