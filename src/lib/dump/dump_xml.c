/*
 * dump_xml.c - the two XML descriptions of a host that HPC and AI sites
 * already attach to a ticket, read into the dump's records (dump_int.h):
 *
 * - hwloc's topology (`lstopo --of xml`, `hwloc-gather-topology`; formats
 *   1.x, 2.x and 3.x): packages and NUMA nodes with their cpusets, the
 *   PCI tree (host bridges, bridges with their secondary..subordinate
 *   buses, devices with "class [vendor:device] [subvendor:subdevice]
 *   rev"), the NUMA node the I/O hangs under, and the OS devices under
 *   each function: network interfaces, OpenFabrics (RDMA) devices with
 *   their ports' states, NVML GPUs (whose number is nvidia-smi's index).
 * - NCCL's topology (NCCL_TOPO_DUMP_FILE, NCCL_TOPO_FILE: <system>, its
 *   <cpu>s with numaid and affinity, nested <pci> switches and devices,
 *   <gpu dev=> and <nic><net name=>).
 *
 * Why a real parser: these files are XML written by a library (entities,
 * comments, attribute order, quoting and whitespace are the writer's
 * choice), and a paste can cut them anywhere. libxml2 reads them, in
 * recover mode, with the network, DTD loading and entity substitution
 * off; a document with a DTD internal subset, where entities are defined,
 * is not read at all, whatever its encoding (expansion is the one way a
 * short text becomes a huge one; see guarded_read()). Where a document is cut
 * or damaged, what came before the damage is kept and not_checked says
 * where it stopped.
 *
 * A document is found by its first line ("<?xml", "<topology", "<system")
 * anywhere in a paste, and runs to the line of its closing tag; the lines
 * around it are read as the other formats are. Every record it makes
 * cites the element's own line. Neither format carries LnkCap or LnkSta
 * (hwloc gives a link's bandwidth in GB/s, speed times width; NCCL the
 * lower of two maximum speeds, or NVML's current one), a driver, config
 * space or a port's rate: the audit says so instead of judging them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "core/alloc_int.h"
#include "dump/dump_int.h"
#include "nicfit/units.h"
#include "core/pciids_int.h"
#include "core/xml_int.h"

#define XML_MAX_PKG 64        /* packages of one document kept for node sockets */
#define XML_BITMAP_WORDS (DUMP_MAX_CPUS / 32)

/* hwloc's OS device types: v1 and v2 number them, v3 gives them as bits. */
enum { HW_OS_GPU = 1, HW_OS_NET = 2, HW_OS_OFA = 3, HW_OS_OTHER = 0 };

struct xml_pkg {
	int id;
	unsigned *bits;           /* XML_BITMAP_WORDS words */
};

/* One document's walk. */
struct xctx {
	struct nicfit_dump *d;
	struct dump_xml *x;
	int ti, line0;            /* its text, and the line it starts on */
	int v3;                   /* hwloc 3.x: osdev_type is a set of bits */
	struct xml_pkg pkg[XML_MAX_PKG];
	int npkg;
};

void nicfit__dump_xml_free(struct dump_xml *x)
{
	if (!x)
		return;
	free(x->net);
	free(x);
}

static struct dump_xml *xml_state(struct nicfit_dump *d)
{
	if (!d->xml)
		d->xml = calloc(1, sizeof(*d->xml));
	if (!d->xml)
		d->oom = 1;
	return d->xml;
}

/* ---- attributes ----------------------------------------------------------- */

/* Copy attribute name of n into buf; 1 when it was there. */
static int attr(xmlNode *n, const char *name, char *buf, size_t len)
{
	xmlChar *v = nicfit__xml_get_no_ns_prop(n, (const xmlChar *)name);

	buf[0] = '\0';
	if (!v)
		return 0;
	snprintf(buf, len, "%s", (const char *)v);
	nicfit__xml_free(v);
	return 1;
}

static int is(xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* A decimal attribute in [min, max]; def when absent or not a number. */
static long attr_dec(xmlNode *n, const char *name, long min, long max, long def)
{
	char buf[32];
	long v;

	if (!attr(n, name, buf, sizeof(buf)) || nicfit_parse_dec(buf, min, max, &v))
		return def;
	return v;
}

/* "0x10de" or "10de": at most digits hex digits; -1 none. */
static long hex_attr(xmlNode *n, const char *name, int digits)
{
	char buf[32];
	const char *s = buf, *e;
	long v;

	if (!attr(n, name, buf, sizeof(buf)))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	v = nicfit__dump_hex(s, digits, 0, &e);
	return v < 0 || *e ? -1 : v;
}

static struct dump_at at_of(const struct xctx *c, xmlNode *n)
{
	long ln = nicfit__xml_get_line_no(n);

	return (struct dump_at){ c->ti, c->line0 + (ln > 0 && ln < 1 << 28 ? (int)ln - 1 : 0) };
}

/* The value of <info name="key" value="..."/> among n's children; 1 when there. */
static int info(xmlNode *n, const char *key, char *buf, size_t len)
{
	char nm[64];

	buf[0] = '\0';
	for (n = n->children; n; n = n->next)
		if (is(n, "info") && attr(n, "name", nm, sizeof(nm)) && !strcmp(nm, key))
			return attr(n, "value", buf, len);
	return 0;
}

/* ---- bitmaps --------------------------------------------------------------- */

/*
 * A cpuset: hwloc's "0x0000ffff,0xffffffff" or NCCL's and sysfs'
 * "0000ffff,ffffffff", 32-bit words, most significant first (hwloc may
 * lead with "0xf...f" for an infinite set: its bits past the last word
 * are dropped). Into bits; -1 malformed, else the number of words.
 */
static int bitmap(const char *s, unsigned *bits)
{
	unsigned w[XML_BITMAP_WORDS];
	int n = 0, i;

	memset(bits, 0, XML_BITMAP_WORDS * sizeof(*bits));
	while (*s) {
		const char *e;
		long v;

		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		if (!strncmp(s, "f...f", 5)) {
			s += 5;
			if (*s == ',')
				s++;
			continue;
		}
		v = nicfit__dump_hex(s, 8, 0, &e);
		if (v < 0 || n >= XML_BITMAP_WORDS || (*e && *e != ','))
			return -1;
		w[n++] = (unsigned)v;
		s = *e ? e + 1 : e;
	}
	for (i = 0; i < n; i++)
		bits[i] = w[n - 1 - i];
	return n;
}

static int bit(const unsigned *bits, int i)
{
	return i >= 0 && i < DUMP_MAX_CPUS && (bits[i / 32] >> (i % 32) & 1u);
}

/* The only bit set, -1 none or several. */
static int single_bit(const unsigned *bits)
{
	int i, found = -1;

	for (i = 0; i < DUMP_MAX_CPUS; i++)
		if (bit(bits, i)) {
			if (found >= 0)
				return -1;
			found = i;
		}
	return found;
}

/* "0-11,24-35" into out; "" when it does not fit. Returns the lowest bit, -1 none. */
static int cpulist(const unsigned *bits, char *out, size_t len)
{
	size_t n = 0;
	int i = 0, first = -1;

	out[0] = '\0';
	while (i < DUMP_MAX_CPUS) {
		int j = i, k;

		if (!bit(bits, i)) {
			i++;
			continue;
		}
		while (bit(bits, j + 1))
			j++;
		if (first < 0)
			first = i;
		k = j > i ? snprintf(out + n, len - n, "%s%d-%d", n ? "," : "", i, j)
			  : snprintf(out + n, len - n, "%s%d", n ? "," : "", i);
		if (k < 0 || (size_t)k >= len - n) {
			out[0] = '\0';
			return first;
		}
		n += (size_t)k;
		i = j + 1;
	}
	return first;
}

/* ---- records --------------------------------------------------------------- */

/*
 * The function a "DDDD:BB:DD.F" attribute names, created or merged; NULL
 * absent, bad or full. A bad one ("ffffffff:ff:1f.7", "0000:19:00") is a
 * read problem of its element's line. Domains run to 0xfffff, as lspci's
 * do: Intel VMD puts its functions in domains 10000 and up.
 */
static struct dump_fn *fn_at(struct xctx *c, xmlNode *n, const char *attr_name,
			     const char *parent)
{
	char busid[40];
	unsigned dom, bus, dev, fn;
	size_t used;
	struct dump_fn *f;

	if (!attr(n, attr_name, busid, sizeof(busid)))
		return NULL;
	used = nicfit__dump_bdf(busid, &dom, &bus, &dev, &fn);
	if (!used || busid[used]) {
		nicfit__dump_problem(c->d, at_of(c, n), "<%s %s=\"%s\">: not a PCI address (element "
				     "left out)", (const char *)n->name, attr_name, busid);
		return NULL;
	}
	f = nicfit__dump_fn(c->d, dom, bus, dev, fn);
	if (!f)
		return NULL;
	f->at = at_of(c, n);
	f->from_xml = 1;
	f->parent_nccl = 0; /* nccl_pci() sets it: the last document to place f decides */
	snprintf(f->parent, sizeof(f->parent), "%s", parent);
	return f;
}

static void set_numa(struct dump_fn *f, int numa)
{
	if (numa < 0)
		return;
	f->numa = numa;
	f->have |= NICFIT_HAVE_NUMA;
}

/*
 * hwloc and NCCL do not mark SR-IOV virtual functions; their IDs do (a
 * ConnectX VF is 15b3:101e): the audit leaves VFs out of its pairs, as it
 * does on a live host, where the kernel's physfn link tells.
 */
static void mark_vf(struct dump_fn *f)
{
	const struct nicfit_pci_id *id = nicfit__pci_id_find(f->vendor, f->device);

	f->is_vf = id && (id->flags & NICFIT_PCIID_VF);
}

/* A GPU index (nvidia-smi's, NVML's) at the function bdf. */
static void gpu_index(struct nicfit_dump *d, long k, const char *bdf, struct dump_at at)
{
	if (k < 0 || k >= DUMP_MAX_SMI)
		return;
	snprintf(d->gpu_bdf[k], sizeof(d->gpu_bdf[k]), "%s", bdf);
	d->gpu_at[k] = at;
	d->gpu_map = 1;
}

/* An interface the document names at a function. */
static void add_net(struct xctx *c, const char *name, const char *bdf, struct dump_at at)
{
	struct dump_xml *x = c->x;
	size_t i;

	if (!name[0] || strlen(name) >= sizeof(x->net[0].name))
		return;
	for (i = 0; i < x->nnet; i++)
		if (!strcmp(x->net[i].name, name))
			return;
	if (x->nnet >= NICFIT_TOPO_MAX_NET)
		return;
	if (NICFIT_ALLOC_GROW(x->net, x->nnet + 1, x->alloc_net)) {
		c->d->oom = 1;
		return;
	}
	snprintf(x->net[x->nnet].name, sizeof(x->net[0].name), "%s", name);
	snprintf(x->net[x->nnet].bdf, sizeof(x->net[0].bdf), "%s", bdf);
	x->net[x->nnet].at = at;
	x->nnet++;
}

/* An RDMA device of the document at a function; its port num's state when known (-1). */
static void add_rdma(struct xctx *c, const char *name, const char *bdf, struct dump_at at,
		     int port, int state)
{
	struct dump_rdma *r = nicfit__dump_rdma_of(c->d, name, strlen(name));
	int k;

	if (!r)
		return;
	snprintf(r->bdf, sizeof(r->bdf), "%s", bdf);
	if (!r->at.line)
		r->at = at;
	if (port < 1 || port > 255)
		return;
	for (k = 0; k < r->nports && r->ports[k].num != port; k++)
		;
	if (k == r->nports) {
		if (k >= NICFIT_TOPO_MAX_PORTS)
			return;
		memset(&r->ports[k], 0, sizeof(r->ports[k]));
		r->ports[k].num = port;
		r->ports[k].state = r->ports[k].phys = -1;
		r->nports++;
	}
	if (state >= 0) {
		r->ports[k].state = state;
		r->from_ibv = 1;
		c->x->port_states = 1;
	}
}

/* A NUMA node with its cpuset; returns it, NULL when full. */
static struct dump_node *add_node(struct xctx *c, long id, const char *cpuset,
				  struct dump_at at)
{
	struct dump_node *nd = nicfit__dump_node_of(c->d, id, at);
	unsigned *bits;

	if (!nd || !cpuset[0])
		return nd;
	bits = malloc(XML_BITMAP_WORDS * sizeof(*bits));
	if (!bits) {
		c->d->oom = 1;
		return nd;
	}
	if (bitmap(cpuset, bits) >= 0) {
		nd->first_cpu = cpulist(bits, nd->cpulist, sizeof(nd->cpulist));
		nd->have_cpus = 1;
		nd->at = at;
	}
	free(bits);
	return nd;
}

/* ---- hwloc ----------------------------------------------------------------- */

static int osdev_kind(const struct xctx *c, xmlNode *n)
{
	long t = attr_dec(n, "osdev_type", 0, 1L << 30, -1);

	if (t < 0)
		return HW_OS_OTHER;
	if (c->v3)
		return t & 32 ? HW_OS_OFA : t & 16 ? HW_OS_NET : t & 4 ? HW_OS_GPU : HW_OS_OTHER;
	return t == 3 ? HW_OS_OFA : t == 2 ? HW_OS_NET : t == 1 || t == 5 ? HW_OS_GPU : HW_OS_OTHER;
}

/* An OS device under the function bdf: an interface, an RDMA device, an NVML GPU. */
static void hw_osdev(struct xctx *c, xmlNode *n, const char *bdf)
{
	char name[64], key[24], val[16];
	struct dump_at at = at_of(c, n);
	const char *e;
	long idx;
	int kind = osdev_kind(c, n), p;

	if (!bdf[0] || !attr(n, "name", name, sizeof(name)) || !name[0])
		return;
	if (kind == HW_OS_NET) {
		add_net(c, name, bdf, at);
	} else if (kind == HW_OS_OFA) {
		add_rdma(c, name, bdf, at, -1, -1);
		for (p = 1; p <= NICFIT_TOPO_MAX_PORTS; p++) {
			snprintf(key, sizeof(key), "Port%dState", p);
			if (info(n, key, val, sizeof(val)) && !nicfit_parse_dec(val, 0, 7, &idx))
				add_rdma(c, name, bdf, at, p, (int)idx);
		}
	} else if (!strncmp(name, "nvml", 4) &&
		   nicfit_scan_dec(name + 4, 0, DUMP_MAX_SMI - 1, &idx, &e) == NICFIT_DEC_OK &&
		   !*e) {
		gpu_index(c->d, idx, bdf, at);
	}
}

/* hwloc's pci_type, "0604 [8086:2030] [8086:0000] 04", into f. */
static void hw_pci_type(struct dump_fn *f, const char *s)
{
	long v[5];
	int i;

	for (i = 0; i < 5; i++) {
		const char *e;

		if (i)
			s = nicfit__dump_skip_blank(s);
		if (i == 1 || i == 3) {
			if (*s != '[')
				return;
			s++;
		}
		v[i] = nicfit__dump_hex(s, 4, 1, &e);
		if (v[i] < 0)
			return;
		s = e;
		if (i == 1 || i == 3) {
			if (*s != ':')
				return;
			s++;
			v[++i] = nicfit__dump_hex(s, 4, 1, &e);
			if (v[i] < 0 || e[0] != ']')
				return;
			s = e + 1;
		}
	}
	f->class_code = (unsigned)v[0] << 8;
	f->vendor = (unsigned)v[1];
	f->device = (unsigned)v[2];
	f->subvendor = (unsigned)v[3];
	f->subdevice = (unsigned)v[4];
	f->have |= NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS | NICFIT_HAVE_SUBSYS;
	mark_vf(f);
}

/* bridge_pci "0000:[03-05]": the secondary and subordinate buses. */
static void hw_bridge_pci(struct dump_fn *f, xmlNode *n)
{
	char buf[40];
	const char *s, *e;
	long sec, sub;

	if (!attr(n, "bridge_pci", buf, sizeof(buf)) || !(s = strchr(buf, '[')))
		return;
	sec = nicfit__dump_hex(s + 1, 2, 1, &e);
	if (sec < 0 || *e != '-')
		return;
	sub = nicfit__dump_hex(e + 1, 2, 1, &e);
	if (sub < sec || *e != ']')
		return;
	f->secondary = (int)sec;
	f->subordinate = (int)sub;
	f->have |= NICFIT_HAVE_SECBUS;
}

/* A Bridge or PCIDev with a bus id: its record; children see it as their parent. */
static struct dump_fn *hw_pci(struct xctx *c, xmlNode *n, const char *parent, int numa)
{
	char type[32], slot[32];
	struct dump_fn *f = fn_at(c, n, "pci_busid", parent);

	if (!f)
		return NULL;
	if (attr(n, "pci_type", type, sizeof(type)))
		hw_pci_type(f, type);
	set_numa(f, numa);
	if (is(n, "object") && attr(n, "type", type, sizeof(type)) && !strcmp(type, "Bridge"))
		hw_bridge_pci(f, n);
	if (info(n, "PCISlot", slot, sizeof(slot)))
		snprintf(f->slot, sizeof(f->slot), "%s", slot);
	if (attr(n, "pci_link_speed", type, sizeof(type)))
		c->x->link_gbs = 1;
	return f;
}

/* The NUMA node of what hangs under an object: its nodeset's one node, else -1. */
static int hw_numa_of(xmlNode *n, int inherited)
{
	char buf[600];
	unsigned *bits;
	int k;

	if (!attr(n, "nodeset", buf, sizeof(buf)))
		return inherited;
	bits = malloc(XML_BITMAP_WORDS * sizeof(*bits));
	if (!bits)
		return -1;
	k = bitmap(buf, bits) >= 0 ? single_bit(bits) : -1;
	free(bits);
	return k < NICFIT_TOPO_MAX_NUMA ? k : -1;
}

static void hw_package(struct xctx *c, xmlNode *n)
{
	char buf[600];
	struct xml_pkg *p;

	if (c->npkg >= XML_MAX_PKG || !attr(n, "cpuset", buf, sizeof(buf)))
		return;
	p = &c->pkg[c->npkg];
	p->bits = malloc(XML_BITMAP_WORDS * sizeof(*p->bits));
	if (!p->bits) {
		c->d->oom = 1;
		return;
	}
	if (bitmap(buf, p->bits) < 0) {
		free(p->bits);
		return;
	}
	p->id = (int)attr_dec(n, "os_index", 0, DUMP_MAX_SOCKET, c->npkg);
	c->npkg++;
}

/* The host's names as hwloc read them (DMI, uname), the first document's. */
static void hw_machine(struct dump_xml *x, xmlNode *n)
{
	if (!x->hostname[0])
		info(n, "HostName", x->hostname, sizeof(x->hostname));
	if (!x->sys_vendor[0])
		info(n, "DMISysVendor", x->sys_vendor, sizeof(x->sys_vendor));
	if (!x->product[0])
		info(n, "DMIProductName", x->product, sizeof(x->product));
	if (!x->kernel[0])
		info(n, "OSRelease", x->kernel, sizeof(x->kernel));
}

/* The objects below n: parent is the function above them ("" a host bridge or none). */
static void hw_walk(struct xctx *c, xmlNode *n, const char *parent, int numa)
{
	char type[32], cpuset[600];
	struct dump_fn *f;

	for (n = n->children; n && !c->d->oom; n = n->next) {
		if (!is(n, "object") || !attr(n, "type", type, sizeof(type)))
			continue;
		if (!strcmp(type, "PCIDev") || !strcmp(type, "Bridge")) {
			char mine[16];

			f = hw_pci(c, n, parent, numa);
			snprintf(mine, sizeof(mine), "%s", f ? f->bdf : "");
			hw_walk(c, n, f ? mine : "", numa);
			continue;
		}
		if (!strcmp(type, "OSDev")) {
			hw_osdev(c, n, parent);
			continue;
		}
		if (!strcmp(type, "Package"))
			hw_package(c, n);
		if (!strcmp(type, "Machine"))
			hw_machine(c->x, n);
		if (!strcmp(type, "NUMANode")) {
			attr(n, "cpuset", cpuset, sizeof(cpuset));
			add_node(c, attr_dec(n, "os_index", 0, NICFIT_TOPO_MAX_NUMA - 1, -1), cpuset,
				 at_of(c, n));
		}
		hw_walk(c, n, parent, hw_numa_of(n, numa));
	}
}

/* Each node's socket: the package that holds its lowest CPU. */
static void hw_sockets(struct xctx *c)
{
	struct dump_cpu *cpu = &c->d->cpu;
	int k, p;

	for (k = 0; k < cpu->nnodes; k++)
		for (p = 0; p < c->npkg; p++)
			if (cpu->node[k].first_cpu >= 0 && bit(c->pkg[p].bits, cpu->node[k].first_cpu))
				cpu->node[k].socket = c->pkg[p].id;
	if (c->npkg)
		cpu->sockets = c->npkg;
	for (p = 0; p < c->npkg; p++)
		free(c->pkg[p].bits);
	c->npkg = 0;
}

/* ---- NCCL ------------------------------------------------------------------ */

/*
 * Whether an NCCL <net> is an RDMA device: the IB plugin names nets by
 * verbs device ("mlx5_0") and gives a port GUID; the socket transport
 * names them by interface ("eth0", "ens1f0np0").
 */
static int nccl_rdma_name(xmlNode *n, const char *name)
{
	const char *u = strrchr(name, '_');
	char guid[40];

	if (attr(n, "guid", guid, sizeof(guid)) && guid[0])
		return 1;
	return u && u[1] >= '0' && u[1] <= '9';
}

static void nccl_nic(struct xctx *c, xmlNode *nic, const char *bdf)
{
	char name[64];
	xmlNode *n;

	for (n = nic->children; n; n = n->next) {
		if (!is(n, "net") || !attr(n, "name", name, sizeof(name)) || !name[0] || !bdf[0])
			continue;
		if (nccl_rdma_name(n, name))
			add_rdma(c, name, bdf, at_of(c, n), (int)attr_dec(n, "port", 1, 255, 1), -1);
		else
			add_net(c, name, bdf, at_of(c, n));
	}
}

static void nccl_pci(struct xctx *c, xmlNode *n, const char *parent, int numa);

/*
 * The <pci>s under an element whose busid could not be read: they are
 * read as if under the function above it (its own <gpu> and <nic> are
 * left out, having no function to sit on), so that one bad element does
 * not take its subtree with it.
 */
static void nccl_orphans(struct xctx *c, xmlNode *n, const char *parent, int numa)
{
	xmlNode *k;

	for (k = n->children; k && !c->d->oom; k = k->next)
		if (is(k, "pci"))
			nccl_pci(c, k, parent, numa);
}

static void nccl_pci(struct xctx *c, xmlNode *n, const char *parent, int numa)
{
	struct dump_fn *f = fn_at(c, n, "busid", parent);
	long cls = hex_attr(n, "class", 6), ven = hex_attr(n, "vendor", 4),
	     dev = hex_attr(n, "device", 4), sv = hex_attr(n, "subsystem_vendor", 4),
	     sd = hex_attr(n, "subsystem_device", 4);
	char bdf[16], speed[32];
	xmlNode *k;

	if (!f) {
		nccl_orphans(c, n, parent, numa);
		return;
	}
	f->parent_nccl = parent[0] != '\0';
	snprintf(bdf, sizeof(bdf), "%s", f->bdf);
	if (cls >= 0) {
		f->class_code = (unsigned)cls;
		f->have |= NICFIT_HAVE_CLASS;
	}
	/* Azure's published files give vendor and device as 0x0000 for made-up switches */
	if (ven > 0 && dev >= 0) {
		f->vendor = (unsigned)ven;
		f->device = (unsigned)dev;
		f->have |= NICFIT_HAVE_IDS;
		mark_vf(f);
	} else {
		c->x->class_only = 1;
		if (cls >= 0) /* the name the audit gives a device it knows by class alone */
			snprintf(f->name, sizeof(f->name), "%s", nicfit_pci_class_name(f->class_code));
	}
	if (sv > 0 && sd >= 0) {
		f->subvendor = (unsigned)sv;
		f->subdevice = (unsigned)sd;
		f->have |= NICFIT_HAVE_SUBSYS;
	}
	set_numa(f, numa);
	if (attr(n, "link_speed", speed, sizeof(speed)) && speed[0])
		c->x->link_nccl = 1;
	for (k = n->children; k && !c->d->oom; k = k->next) {
		if (is(k, "pci"))
			nccl_pci(c, k, bdf, numa);
		else if (is(k, "gpu"))
			gpu_index(c->d, attr_dec(k, "dev", 0, DUMP_MAX_SMI - 1, -1), bdf, at_of(c, k));
		else if (is(k, "nic"))
			nccl_nic(c, k, bdf);
		if (is(k, "gpu") && k->children)
			for (xmlNode *l = k->children; l; l = l->next)
				if (is(l, "nvlink"))
					c->x->nvlink = 1;
	}
}

/*
 * A <cpu>'s numaid: NCCL writes the kernel's numa_node, -1 where it has
 * none (left unknown). Anything else that is not a node nicfit can hold
 * ("99999999999999999999") is a read problem: the devices under the <cpu>
 * are read, their NUMA node unknown.
 */
static long numaid(struct xctx *c, xmlNode *cpu)
{
	char buf[32];
	long id;

	if (!attr(cpu, "numaid", buf, sizeof(buf)))
		return -1;
	if (!nicfit_parse_dec(buf, -1, NICFIT_TOPO_MAX_NUMA - 1, &id))
		return id;
	nicfit__dump_problem(c->d, at_of(c, cpu), "<cpu numaid=\"%s\">: not a NUMA node nicfit "
			     "can hold (0 to %d)", buf, NICFIT_TOPO_MAX_NUMA - 1);
	return -1;
}

static void nccl_walk(struct xctx *c, xmlNode *sys)
{
	char aff[600];
	xmlNode *cpu, *n;

	for (cpu = sys->children; cpu && !c->d->oom; cpu = cpu->next) {
		long id;

		if (!is(cpu, "cpu"))
			continue;
		id = numaid(c, cpu);
		attr(cpu, "affinity", aff, sizeof(aff));
		if (id >= 0)
			add_node(c, id, aff, at_of(c, cpu));
		for (n = cpu->children; n; n = n->next)
			if (is(n, "pci"))
				nccl_pci(c, n, "", (int)id);
	}
}

/* ---- the document ---------------------------------------------------------- */

int nicfit__dump_xml_start(const char *line)
{
	const char *s = nicfit__dump_skip_blank(line);

	return !strncmp(s, "<?xml", 5) || !strncmp(s, "<topology", 9) ||
	       !strncmp(s, "<system", 7) || !strncmp(s, "<!DOCTYPE topology", 18);
}

/* Where the document at text[pos..len) ends: past the line of its closing tag, else len. */
static size_t doc_end(const char *text, size_t pos, size_t len)
{
	static const char *const close[] = { "</topology>", "</system>" };
	size_t best = len;
	int i;

	for (i = 0; i < 2; i++) {
		size_t k = strlen(close[i]), p;

		for (p = pos; p + k <= best; p++)
			if (text[p] == '<' && !memcmp(text + p, close[i], k)) {
				const char *nl = memchr(text + p, '\n', len - p);

				best = nl ? (size_t)(nl - text) + 1 : len;
				break;
			}
	}
	return best;
}

/*
 * The guard on a document's DTD, as libxml2 reads it (after decoding,
 * whatever encoding the document declares: a byte search for "<!ENTITY"
 * misses "+ADw-!ENTITY" in UTF-7). An internal subset ("<!DOCTYPE x [
 * ... ]>") is where entities are defined, and expanding them is the one
 * way a short text becomes a huge one: the parse stops where the subset
 * opens, before a declaration in it is read. A DOCTYPE without one
 * (hwloc's `<!DOCTYPE topology SYSTEM "hwloc2.dtd">`) is read as before;
 * the external DTD it names is never loaded (no XML_PARSE_DTDLOAD), and no
 * entity is substituted (no XML_PARSE_NOENT).
 */
struct xml_guard {
	internalSubsetSAXFunc subset_sax;  /* libxml2's own, for a DOCTYPE without a subset */
	entityDeclSAXFunc entity_sax;
	int refused;                       /* an internal subset or a declaration: stopped */
};

static void guard_subset(void *ud, const xmlChar *name, const xmlChar *ext, const xmlChar *sys)
{
	xmlParserCtxtPtr ctxt = ud;
	struct xml_guard *g = ctxt->_private;
	xmlParserInputPtr in = ctxt->input;

	/* libxml2 calls this with the blanks after the external ID skipped: '[' opens a subset */
	if (!in || !in->cur || in->cur >= in->end || *in->cur == '[') {
		g->refused = 1;
		nicfit__xml_stop_parser(ctxt);
		return;
	}
	if (g->subset_sax)
		g->subset_sax(ud, name, ext, sys);
}

/* Any entity declaration, wherever libxml2 meets it, stops the parse too. */
static void guard_entity(void *ud, const xmlChar *name, int type, const xmlChar *pub,
			 const xmlChar *sys, xmlChar *content)
{
	xmlParserCtxtPtr ctxt = ud;
	struct xml_guard *g = ctxt->_private;

	(void)name, (void)type, (void)pub, (void)sys, (void)content;
	g->refused = 1;
	nicfit__xml_stop_parser(ctxt);
}

/* Parse text with the guard on: the tree (NULL when none), g->refused when stopped by it. */
static xmlDoc *guarded_read(xmlParserCtxt *ctx, struct xml_guard *g, const char *text, int n)
{
	int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
		   XML_PARSE_RECOVER | XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA;
	xmlDoc *xd;

	memset(g, 0, sizeof(*g));
	ctx->_private = g;
	if (ctx->sax) {
		g->subset_sax = ctx->sax->internalSubset;
		g->entity_sax = ctx->sax->entityDecl;
		ctx->sax->internalSubset = guard_subset;
		ctx->sax->entityDecl = guard_entity;
	}
	xd = nicfit__xml_ctxt_read_memory(ctx, text, n, NULL, NULL, opts);
	/* and on the tree: a subset that holds anything was not read */
	if (xd && xd->intSubset && xd->intSubset->children)
		g->refused = 1;
	if (ctx->sax) {
		ctx->sax->internalSubset = g->subset_sax;
		ctx->sax->entityDecl = g->entity_sax;
	}
	ctx->_private = NULL;
	return xd;
}

static struct dump_xml_doc *new_doc(struct dump_xml *x, int ti, int line)
{
	struct dump_xml_doc *doc;

	if (x->ndocs >= DUMP_XML_MAX_DOCS)
		return NULL;
	doc = &x->doc[x->ndocs++];
	memset(doc, 0, sizeof(*doc));
	doc->at = (struct dump_at){ ti, line };
	return doc;
}

static void damage(struct dump_xml_doc *doc, const char *tname, const xmlError *e)
{
	char msg[120];
	size_t i, n;

	snprintf(msg, sizeof(msg), "%s", e && e->message ? e->message : "not a document");
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	for (i = 0; i < n; i++)
		if ((unsigned char)msg[i] < 0x20 || (unsigned char)msg[i] > 0x7e)
			msg[i] = '?';
	doc->damaged = 1;
	snprintf(doc->why, sizeof(doc->why), "The XML at %s:%d is cut or damaged at line %d "
		 "(libxml2: %s): what follows that point was not read.", tname, doc->at.line,
		 doc->at.line + (e && e->line > 1 && e->line < 1 << 28 ? e->line - 1 : 0), msg);
}

static void read_root(struct xctx *c, struct dump_xml_doc *doc, xmlNode *root)
{
	char ver[16];

	attr(root, "version", ver, sizeof(ver));
	if (is(root, "topology")) {
		doc->kind = NICFIT_DUMP_HWLOC;
		c->v3 = ver[0] >= '3' && ver[0] <= '9';
		hw_walk(c, root, "", -1);
		hw_sockets(c);
	} else if (is(root, "system")) {
		doc->kind = NICFIT_DUMP_NCCL;
		nccl_walk(c, root);
	}
	c->d->formats |= (unsigned)doc->kind;
}

size_t nicfit__dump_xml_read(struct nicfit_dump *d, int ti, size_t pos, int line)
{
	const struct dump_text *t = &d->texts[ti];
	size_t end = doc_end(t->text, pos, t->len);
	struct dump_xml *x = xml_state(d);
	struct dump_xml_doc *doc;
	struct xctx c;
	struct nicfit_error lerr;
	xmlParserCtxt *ctx;
	struct xml_guard g;
	xmlDoc *xd;

	if (!x || end - pos > INT32_MAX || !(doc = new_doc(x, ti, line)))
		return 0;
	doc->end_line = line;
	for (size_t p = pos; p < end; p++)
		doc->end_line += t->text[p] == '\n';
	nicfit_error_clear(&lerr);
	if (nicfit__xml_load(&lerr)) {
		/* the rest of the paste is still read; this document is listed as unread */
		doc->damaged = 1;
		snprintf(doc->why, sizeof(doc->why), "The XML at %s:%d was not read: %s.", t->name,
			 line, lerr.msg);
		return end - pos;
	}
	ctx = nicfit__xml_new_parser_ctxt();
	if (!ctx) {
		d->oom = 1;
		return 0;
	}
	xd = guarded_read(ctx, &g, t->text + pos, (int)(end - pos));
	if (g.refused) {
		doc->damaged = 1;
		snprintf(doc->why, sizeof(doc->why), "The XML at %s:%d has a DTD internal subset "
			 "(<!DOCTYPE ... [ ]>, where entities are defined), which nicfit does not "
			 "read: it was not read.", t->name, line);
		nicfit__xml_free_doc(xd);
		nicfit__xml_free_parser_ctxt(ctx);
		return end - pos;
	}
	if (!ctx->wellFormed || !xd)
		damage(doc, t->name, nicfit__xml_ctxt_get_last_error(ctx));
	memset(&c, 0, sizeof(c));
	c.d = d;
	c.x = x;
	c.ti = ti;
	c.line0 = line;
	if (xd && nicfit__xml_doc_get_root_element(xd))
		read_root(&c, doc, nicfit__xml_doc_get_root_element(xd));
	nicfit__xml_free_doc(xd);
	nicfit__xml_free_parser_ctxt(ctx);
	return end - pos;
}

/* ---- into the model and the audit ----------------------------------------- */

const char *nicfit__dump_xml_unread(const struct nicfit_dump *d)
{
	int i;

	for (i = 0; d->xml && i < d->xml->ndocs; i++)
		if (d->xml->doc[i].damaged)
			return d->xml->doc[i].why;
	return NULL;
}

/* Whether an XML function is a GPU or NIC placed on no single NUMA node. */
static int numa_unknown(const struct nicfit_dump *d)
{
	size_t i;

	for (i = 0; i < d->nfns; i++) {
		unsigned base = d->fns[i].class_code >> 16;

		if (d->fns[i].from_xml && d->fns[i].numa < 0 &&
		    (base == 0x02 || base == 0x03 || base == 0x12))
			return 1;
	}
	return 0;
}

int nicfit__dump_xml_lack(const struct nicfit_dump *d, int i, const char **check,
			  const char **why)
{
	const struct dump_xml *x = d->xml;
	int hw = !!(d->formats & NICFIT_DUMP_HWLOC), nc = !!(d->formats & NICFIT_DUMP_NCCL);
	int only = !(d->formats & NICFIT_DUMP_LSPCI_V), k = 0, j;

#define LACK(cond, c, w)                        \
	do {                                    \
		if ((cond) && k++ == i) {       \
			*check = (c);           \
			*why = (w);             \
			return 1;               \
		}                               \
	} while (0)
	if (!x)
		return 0;
	LACK(only && hw, "pcie_links", "hwloc XML gives each PCIe link's bandwidth in GB/s "
	     "(speed times width), not its speed and width, and no LnkCap: link speeds, widths "
	     "and downgrades were not judged (`sudo lspci -vvv` shows LnkCap and LnkSta).");
	LACK(only && nc && !hw, "pcie_links", "NCCL's topology gives each function the lower of "
	     "its own and its port's maximum link speed and width (NVML's current ones for "
	     "GPUs), not LnkCap and LnkSta: links were not judged (`sudo lspci -vvv` shows them).");
	LACK(only, "drivers", "hwloc and NCCL XML name no kernel drivers: whether GPUs and NICs "
	     "have a driver bound is unknown (`lspci -k` shows them).");
	LACK(only, "acs", "hwloc and NCCL XML carry no PCIe config space: ACS control bits are "
	     "unknown (`sudo lspci -vvv` shows ACSCtl).");
	LACK(only, "mps_mrrs", "hwloc and NCCL XML carry no PCIe config space: MaxPayload and "
	     "MaxReadReq are unknown (`sudo lspci -vvv` shows them).");
	LACK(only && nc, "pci_tree", "NCCL's topology keeps each switch's upstream port and "
	     "leaves out its downstream ports, root ports and host bridges: a GPU or NIC behind "
	     "a second switch reads as PIX where the PCI tree has PXB, and each top-level <pci> "
	     "of a <cpu> was taken as under a host bridge of its own (NODE, where NCCL counts "
	     "PHB); `lspci -tv` gives the whole tree.");
	LACK(only && nc && x->class_only, "ids", "Some <pci> elements of NCCL's topology give "
	     "a class but no vendor or device (NCCL reads them from the host at run time): "
	     "those devices were not named or looked up, and a display or 3D controller "
	     "without a vendor is not counted as a GPU.");
	LACK(hw && numa_unknown(d), "numa", "hwloc attaches some GPUs or NICs above a single "
	     "NUMA node (their locality spans several): their NUMA node is unknown.");
	LACK(hw && x->port_states && !(d->formats & NICFIT_DUMP_RDMA), "rdma_ports",
	     "hwloc gives each RDMA port's state (PortNState), not its rate or link layer "
	     "(`ibv_devinfo -v` gives them).");
	LACK(x->nvlink, "nvlink", "NCCL's topology lists the GPUs' NVLinks; nicfit compares "
	     "the GPU-NIC paths only.");
	for (j = 0; j < x->ndocs; j++)
		LACK(x->doc[j].damaged, "xml", x->doc[j].why);
#undef LACK
	return 0;
}

int nicfit__dump_xml_build(const struct nicfit_dump *d, struct nicfit_topo *t)
{
	const struct dump_xml *x = d->xml;
	size_t i;
	int k;

	if (!x)
		return 0;
	if (!t->hostname[0])
		snprintf(t->hostname, sizeof(t->hostname), "%s", x->hostname);
	if (!t->sys_vendor[0])
		snprintf(t->sys_vendor, sizeof(t->sys_vendor), "%s", x->sys_vendor);
	if (!t->product[0])
		snprintf(t->product, sizeof(t->product), "%s", x->product);
	if (!t->kernel[0])
		snprintf(t->kernel, sizeof(t->kernel), "%s", x->kernel);
	for (i = 0; i < x->nnet; i++) {
		int pci = nicfit_topo_find(t, x->net[i].bdf);

		for (k = 0; k < t->nnet && strcmp(t->net[k].name, x->net[i].name); k++)
			;
		if (pci >= 0 && k == t->nnet && nicfit_topo_add_netdev(t, x->net[i].name, pci) < 0)
			return NICFIT_E_NOMEM;
	}
	return 0;
}
