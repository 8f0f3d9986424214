/*
 * topo.c - discovery: sysfs into the host model (see nicfit/topo.h).
 *
 * Order: host identity, NUMA nodes, the PCI tree (from the bus listing,
 * adding every bridge on each device's canonical path; a walk of
 * sys/devices/pci* when there is no listing), slots, network interfaces,
 * RDMA devices, then classification, and only for the devices an audit
 * cares about (GPUs, accelerators, NICs and the bridges above them): config
 * space, VPD and the IOMMU group. Each file is read once.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pciids_int.h"
#include "nicfit/topo.h"
#include "nicfit/units.h"
#include "vpd_int.h"

#define Q NICFIT_SYSFS_QUIET
#define P_MAX NICFIT_SYSFS_PATH_MAX
#define MAX_GID_SCAN 256
#define GID_EMPTY_RUN 32

/* ---- growable arrays ------------------------------------------------------ */

/*
 * Make room for element n of an array that grows by doubling (capacity is
 * implied by n: 8, 16, 32, ...). Returns 0 or -1.
 */
static int room(void **arr, int n, size_t size)
{
	void *p;
	size_t cap;

	if (n && (n < 8 || (n & (n - 1))))
		return 0;
	cap = n < 8 ? 8 : (size_t)n * 2;
	p = realloc(*arr, cap * size);
	if (!p)
		return -1;
	*arr = p;
	return 0;
}

const char *nicfit_dev_kind_name(enum nicfit_dev_kind k)
{
	switch (k) {
	case NICFIT_DEV_BRIDGE: return "bridge";
	case NICFIT_DEV_HOST: return "host-bridge";
	case NICFIT_DEV_GPU: return "gpu";
	case NICFIT_DEV_ACCEL: return "accelerator";
	case NICFIT_DEV_NIC: return "nic";
	case NICFIT_DEV_DISPLAY: return "display";
	case NICFIT_DEV_STORAGE: return "storage";
	case NICFIT_DEV_NVSWITCH: return "nvswitch";
	case NICFIT_DEV_OTHER: break;
	}
	return "other";
}

const char *nicfit_pci_class_name(unsigned c)
{
	switch (c >> 8) {
	case 0x0100: return "SCSI";
	case 0x0101: return "IDE";
	case 0x0104: return "RAID";
	case 0x0106: return "SATA";
	case 0x0107: return "SAS";
	case 0x0108: return "NVMe";
	case 0x0200: return "Ethernet";
	case 0x0207: return "InfiniBand";
	case 0x0280: return "network";
	case 0x0300: return "VGA";
	case 0x0302: return "3D controller";
	case 0x0380: return "display";
	case 0x0403: return "audio";
	case 0x0600: return "host bridge";
	case 0x0601: return "ISA bridge";
	case 0x0604: return "PCI bridge";
	case 0x0680: return "bridge";
	case 0x0880: return "system peripheral";
	case 0x0b40: return "co-processor";
	case 0x0c03: return "USB";
	case 0x0c05: return "SMBus";
	case 0x0c06: return "InfiniBand";
	case 0x1200: return "processing accelerator";
	case 0x1300: return "instrumentation";
	}
	switch (c >> 16) {
	case 0x01: return "storage";
	case 0x02: return "network";
	case 0x03: return "display";
	case 0x06: return "bridge";
	case 0x08: return "system peripheral";
	case 0x0c: return "serial bus";
	case 0x12: return "processing accelerator";
	}
	return "other";
}

/* ---- model building ---------------------------------------------------------- */

struct nicfit_topo *nicfit_topo_new(void)
{
	struct nicfit_topo *t = calloc(1, sizeof(*t));

	if (t) {
		snprintf(t->root, sizeof(t->root), "(model)");
		t->iommu = -1;
		t->euid = -1;
	}
	return t;
}

void nicfit_topo_free(struct nicfit_topo *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->npci; i++)
		free(t->pci[i].path);
	for (i = 0; i < t->nhb; i++)
		free(t->hb[i].path);
	for (i = 0; i < t->nproblems; i++)
		free(t->problems[i].path);
	free(t->pci);
	free(t->hb);
	free(t->numa);
	free(t->net);
	free(t->rdma);
	free(t->slots);
	free(t->problems);
	free(t);
}

int nicfit_topo_add_hostbridge(struct nicfit_topo *t, const char *name, int numa_node)
{
	struct nicfit_hostbridge *h;

	if (room((void **)&t->hb, t->nhb, sizeof(*t->hb)))
		return -1;
	h = &t->hb[t->nhb];
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->parent_pci = -1;
	h->numa_node = numa_node;
	return t->nhb++;
}

int nicfit_topo_add_pci(struct nicfit_topo *t, const char *bdf, int parent, int hb)
{
	struct nicfit_pcidev *d;

	if (t->npci >= NICFIT_TOPO_MAX_PCI || room((void **)&t->pci, t->npci, sizeof(*t->pci)))
		return -1;
	d = &t->pci[t->npci];
	memset(d, 0, sizeof(*d));
	snprintf(d->bdf, sizeof(d->bdf), "%s", bdf);
	if (nicfit_parse_pci_addr(bdf, &d->domain, &d->bus, &d->dev, &d->fn))
		d->domain = d->bus = d->dev = d->fn = 0;
	d->parent = parent;
	d->hostbridge = hb;
	d->depth = parent >= 0 ? t->pci[parent].depth + 1 : 0;
	d->numa_node = -1;
	d->secondary_bus = -1;
	d->physfn = -1;
	d->sriov_numvfs = d->sriov_totalvfs = -1;
	return t->npci++;
}

int nicfit_topo_add_numa(struct nicfit_topo *t, int id, const char *cpulist, int package)
{
	struct nicfit_numa *n;
	long first;

	if (t->nnuma >= NICFIT_TOPO_MAX_NUMA || room((void **)&t->numa, t->nnuma, sizeof(*t->numa)))
		return -1;
	n = &t->numa[t->nnuma];
	memset(n, 0, sizeof(*n));
	n->id = id;
	n->package = package;
	snprintf(n->cpulist, sizeof(n->cpulist), "%s", cpulist ? cpulist : "");
	if (nicfit_parse_cpulist(n->cpulist, &n->ncpus, &first))
		n->ncpus = 0;
	return t->nnuma++;
}

int nicfit_topo_add_netdev(struct nicfit_topo *t, const char *name, int pci)
{
	struct nicfit_netdev *n;

	if (t->nnet >= NICFIT_TOPO_MAX_NET || room((void **)&t->net, t->nnet, sizeof(*t->net)))
		return -1;
	n = &t->net[t->nnet];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->pci = pci;
	n->type = -1;
	n->speed_mbps = -1;
	n->carrier = -1;
	return t->nnet++;
}

int nicfit_topo_add_rdma(struct nicfit_topo *t, const char *name, int pci)
{
	struct nicfit_rdmadev *r;

	if (t->nrdma >= NICFIT_TOPO_MAX_RDMA || room((void **)&t->rdma, t->nrdma, sizeof(*t->rdma)))
		return -1;
	r = &t->rdma[t->nrdma];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->pci = pci;
	return t->nrdma++;
}

int nicfit_topo_find(const struct nicfit_topo *t, const char *bdf)
{
	int i;

	for (i = 0; i < t->npci; i++)
		if (!strcmp(t->pci[i].bdf, bdf))
			return i;
	return -1;
}

int nicfit_topo_chain(const struct nicfit_topo *t, int pci, int *out, int max)
{
	int tmp[NICFIT_TOPO_MAX_DEPTH * 2], n = 0, i, cur = pci;

	if (pci < 0 || pci >= t->npci || max <= 0)
		return 0;
	while (cur >= 0 && n < (int)(sizeof(tmp) / sizeof(tmp[0]))) {
		const struct nicfit_pcidev *d = &t->pci[cur];

		tmp[n++] = cur;
		if (d->parent >= 0)
			cur = d->parent;
		else if (d->hostbridge >= 0 && d->hostbridge < t->nhb)
			cur = t->hb[d->hostbridge].parent_pci;
		else
			cur = -1;
	}
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

int nicfit_topo_numa_of(const struct nicfit_topo *t, int pci)
{
	int cur = pci, guard = 0;

	while (cur >= 0 && cur < t->npci && guard++ < 2 * NICFIT_TOPO_MAX_DEPTH) {
		const struct nicfit_pcidev *d = &t->pci[cur];

		if (d->numa_node >= 0)
			return d->numa_node;
		if (d->parent >= 0) {
			cur = d->parent;
			continue;
		}
		if (d->hostbridge >= 0 && d->hostbridge < t->nhb) {
			if (t->hb[d->hostbridge].numa_node >= 0)
				return t->hb[d->hostbridge].numa_node;
			cur = t->hb[d->hostbridge].parent_pci;
			continue;
		}
		break;
	}
	return t->nnuma == 1 ? t->numa[0].id : -1;
}

int nicfit_topo_socket_of_node(const struct nicfit_topo *t, int node)
{
	int i;

	for (i = 0; i < t->nnuma; i++)
		if (t->numa[i].id == node)
			return t->numa[i].package;
	return -1;
}

/* ---- classification --------------------------------------------------------- */

static enum nicfit_dev_kind classify(const struct nicfit_pcidev *d, int has_net)
{
	const struct nicfit_pci_id *id = (d->have & NICFIT_HAVE_IDS) ?
		nicfit_pci_id_find(d->vendor, d->device) : NULL;
	unsigned base = d->class_code >> 16, sub = (d->class_code >> 8) & 0xff;
	int gpu_vendor = d->vendor == 0x10de || d->vendor == 0x1002;

	if (id && (id->flags & NICFIT_PCIID_GPU))
		return NICFIT_DEV_GPU;
	if (id && (id->flags & NICFIT_PCIID_NIC))
		return NICFIT_DEV_NIC;
	if (!(d->have & NICFIT_HAVE_CLASS))
		return has_net ? NICFIT_DEV_NIC : NICFIT_DEV_OTHER;
	switch (base) {
	case 0x06:
		if (sub == 0x04 || sub == 0x09)
			return NICFIT_DEV_BRIDGE;
		if (sub == 0x00)
			return NICFIT_DEV_HOST;
		if (sub == 0x80 && d->vendor == 0x10de)
			return NICFIT_DEV_NVSWITCH;
		break;
	case 0x03:
		return gpu_vendor ? NICFIT_DEV_GPU : NICFIT_DEV_DISPLAY;
	case 0x12:
		return gpu_vendor ? NICFIT_DEV_GPU : NICFIT_DEV_ACCEL;
	case 0x0b:
		if (sub == 0x40)
			return NICFIT_DEV_ACCEL;
		break;
	case 0x02:
		return NICFIT_DEV_NIC;
	case 0x0c:
		if (sub == 0x06)
			return NICFIT_DEV_NIC;
		break;
	case 0x01:
		return has_net ? NICFIT_DEV_NIC : NICFIT_DEV_STORAGE;
	}
	return has_net ? NICFIT_DEV_NIC : NICFIT_DEV_OTHER;
}

static void infer_port_type(struct nicfit_topo *t, int i)
{
	struct nicfit_pcidev *d = &t->pci[i];
	int bridge = d->kind == NICFIT_DEV_BRIDGE;
	enum nicfit_port_type up;

	if (d->port_type_from_config)
		return;
	if (d->parent < 0) {
		d->port_type = bridge ? NICFIT_PORT_ROOT : NICFIT_PORT_RCIEP;
		return;
	}
	up = t->pci[d->parent].port_type;
	switch (up) {
	case NICFIT_PORT_ROOT:
	case NICFIT_PORT_DOWNSTREAM:
		d->port_type = bridge ? NICFIT_PORT_UPSTREAM : NICFIT_PORT_ENDPOINT;
		break;
	case NICFIT_PORT_UPSTREAM:
		d->port_type = bridge ? NICFIT_PORT_DOWNSTREAM : NICFIT_PORT_RCIEP;
		break;
	case NICFIT_PORT_PCIE_TO_PCI:
	case NICFIT_PORT_LEGACY:
		d->port_type = NICFIT_PORT_LEGACY;
		break;
	default:
		d->port_type = NICFIT_PORT_UNKNOWN;
		break;
	}
}

void nicfit_topo_finish(struct nicfit_topo *t)
{
	int i, j, *hasnet;
	int pk[NICFIT_TOPO_MAX_NUMA], npk = 0;

	hasnet = calloc((size_t)(t->npci ? t->npci : 1), sizeof(*hasnet));
	for (i = 0; hasnet && i < t->nnet; i++)
		if (t->net[i].pci >= 0 && t->net[i].pci < t->npci)
			hasnet[t->net[i].pci] = 1;
	for (i = 0; hasnet && i < t->nrdma; i++)
		if (t->rdma[i].pci >= 0 && t->rdma[i].pci < t->npci)
			hasnet[t->rdma[i].pci] = 1;
	for (i = 0; i < t->npci; i++)
		t->pci[i].kind = classify(&t->pci[i], hasnet ? hasnet[i] : 0);
	free(hasnet);
	/* Parents come before children in the array, so one pass infers all. */
	for (i = 0; i < t->npci; i++)
		infer_port_type(t, i);
	for (i = 0; i < t->nhb; i++) {
		if (t->hb[i].numa_node >= 0)
			continue;
		for (j = 0; j < t->npci; j++)
			if (t->pci[j].hostbridge == i && t->pci[j].numa_node >= 0) {
				t->hb[i].numa_node = t->pci[j].numa_node;
				break;
			}
	}
	for (i = 0; i < t->nnuma; i++) {
		if (t->numa[i].package < 0)
			continue;
		for (j = 0; j < npk; j++)
			if (pk[j] == t->numa[i].package)
				break;
		if (j == npk)
			pk[npk++] = t->numa[i].package;
	}
	t->npackages = npk;
}

/* ---- discovery state ------------------------------------------------------ */

struct disc {
	struct nicfit_sysfs *fs;
	struct nicfit_topo *t;
	struct nicfit_error *err;
	int *hash;          /* path -> pci index + 1 */
	size_t hashcap;
	int rc;             /* first hard error */
};

static size_t strhash(const char *s, size_t n)
{
	size_t h = 5381, i;

	for (i = 0; i < n; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}

static int hash_find(struct disc *d, const char *path, size_t n)
{
	size_t k;

	if (!d->hashcap)
		return -1;
	k = strhash(path, n) & (d->hashcap - 1);
	while (d->hash[k]) {
		const char *p = d->t->pci[d->hash[k] - 1].path;

		if (!strncmp(p, path, n) && !p[n])
			return d->hash[k] - 1;
		k = (k + 1) & (d->hashcap - 1);
	}
	return -1;
}

static int hash_put(struct disc *d, int idx)
{
	size_t k, i;

	if ((size_t)(d->t->npci + 1) * 2 > d->hashcap) {
		size_t cap = d->hashcap ? d->hashcap * 2 : 512;
		int *h = calloc(cap, sizeof(*h));

		if (!h)
			return -1;
		free(d->hash);
		d->hash = h;
		d->hashcap = cap;
		for (i = 0; i < (size_t)d->t->npci; i++) {
			if ((int)i == idx || !d->t->pci[i].path)
				continue;
			k = strhash(d->t->pci[i].path, strlen(d->t->pci[i].path)) & (cap - 1);
			while (h[k])
				k = (k + 1) & (cap - 1);
			h[k] = (int)i + 1;
		}
	}
	k = strhash(d->t->pci[idx].path, strlen(d->t->pci[idx].path)) & (d->hashcap - 1);
	while (d->hash[k])
		k = (k + 1) & (d->hashcap - 1);
	d->hash[k] = idx + 1;
	return 0;
}

static int fail(struct disc *d, int code, const char *what)
{
	if (!d->rc)
		d->rc = nicfit_error_set(d->err, code, "%s", what);
	return d->rc;
}

/* Join dir and a link target lexically ("sys/bus/pci/devices" + "../../../devices/x"). */
static int join_link(const char *dir, const char *target, char *out, size_t cap)
{
	char buf[2 * P_MAX];
	size_t len = 0, i = 0;

	if (target[0] == '/') {
		if (snprintf(buf, sizeof(buf), "%s", target + 1) >= (int)sizeof(buf))
			return -1;
	} else if (snprintf(buf, sizeof(buf), "%s/%s", dir, target) >= (int)sizeof(buf)) {
		return -1;
	}
	out[0] = '\0';
	while (buf[i]) {
		size_t n = strcspn(buf + i, "/");

		if (n == 0 || (n == 1 && buf[i] == '.')) {
			/* skip */
		} else if (n == 2 && buf[i] == '.' && buf[i + 1] == '.') {
			while (len && out[len - 1] != '/')
				len--;
			if (len)
				len--;
			out[len] = '\0';
		} else {
			if (len + 1 + n + 1 > cap)
				return -1;
			if (len)
				out[len++] = '/';
			memcpy(out + len, buf + i, n);
			len += n;
			out[len] = '\0';
		}
		i += n;
		if (buf[i] == '/')
			i++;
	}
	return 0;
}

static int is_bdf(const char *s, size_t n)
{
	char tmp[24];
	unsigned a, b, c, e;

	if (n >= sizeof(tmp))
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return !nicfit_parse_pci_addr(tmp, &a, &b, &c, &e);
}

static int is_pci_root(const char *s, size_t n)
{
	char tmp[24];
	unsigned a, b;
	int used = 0;

	if (n < 8 || n >= sizeof(tmp) || strncmp(s, "pci", 3))
		return 0;
	memcpy(tmp, s + 3, n - 3);
	tmp[n - 3] = '\0';
	return sscanf(tmp, "%x:%x%n", &a, &b, &used) == 2 && used == (int)(n - 3);
}

static void pathf(char *out, size_t cap, const char *dir, const char *name)
{
	if (snprintf(out, cap, "%s/%s", dir, name) >= (int)cap)
		out[0] = '\0';
}

/* ---- host, NUMA ------------------------------------------------------------- */

static void read_host(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	char buf[16384];
	size_t len;
	enum nicfit_sysfs_status st;

	nicfit_sysfs_read_str(d->fs, "proc/sys/kernel/hostname", t->hostname,
			      sizeof(t->hostname), Q);
	nicfit_sysfs_read_str(d->fs, "proc/sys/kernel/osrelease", t->kernel, sizeof(t->kernel), Q);
	if (t->live) {
		struct utsname u;

		if (!uname(&u)) {
			if (!t->hostname[0])
				snprintf(t->hostname, sizeof(t->hostname), "%s", u.nodename);
			if (!t->kernel[0])
				snprintf(t->kernel, sizeof(t->kernel), "%s", u.release);
		}
		t->euid = (int)geteuid();
	}
	nicfit_sysfs_read_str(d->fs, "sys/class/dmi/id/sys_vendor", t->sys_vendor,
			      sizeof(t->sys_vendor), Q);
	nicfit_sysfs_read_str(d->fs, "sys/class/dmi/id/product_name", t->product,
			      sizeof(t->product), Q);

	/* Virtual machine evidence, strongest first. */
	if (nicfit_sysfs_read_str(d->fs, "sys/hypervisor/type", buf, 64, Q) == NICFIT_SYSFS_OK &&
	    buf[0]) {
		t->is_virtual = 1;
		snprintf(t->virtual_why, sizeof(t->virtual_why), "sys/hypervisor/type is %s", buf);
		return;
	}
	st = nicfit_sysfs_read(d->fs, "proc/cpuinfo", buf, sizeof(buf) - 1, &len, Q);
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG) {
		char *flags;

		buf[len] = '\0';
		flags = strstr(buf, "\nflags");
		if (flags) {
			char *eol = strchr(flags + 1, '\n');

			if (eol)
				*eol = '\0';
			if (strstr(flags, " hypervisor")) {
				t->is_virtual = 1;
				snprintf(t->virtual_why, sizeof(t->virtual_why),
					 "the CPU flag 'hypervisor' is set");
				return;
			}
		}
	}
	{
		static const char *const vm_products[] = {
			"KVM", "Virtual Machine", "VMware Virtual Platform", "VirtualBox",
			"Standard PC (Q35 + ICH9, 2009)", "Standard PC (i440FX + PIIX, 1996)",
			"Google Compute Engine", "OpenStack Compute", "HVM domU", NULL
		};
		int i;

		for (i = 0; vm_products[i]; i++)
			if (!strcmp(t->product, vm_products[i])) {
				t->is_virtual = 1;
				snprintf(t->virtual_why, sizeof(t->virtual_why), "DMI product '%s'",
					 t->product);
				return;
			}
		if (!strcmp(t->sys_vendor, "QEMU")) {
			t->is_virtual = 1;
			snprintf(t->virtual_why, sizeof(t->virtual_why), "DMI vendor 'QEMU'");
		}
	}
}

static int read_numa(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	char online[512], path[P_MAX], cpus[512], dist[1024];
	const char *p;

	if (nicfit_sysfs_read_str(d->fs, "sys/devices/system/node/online", online,
				  sizeof(online), 0) != NICFIT_SYSFS_OK) {
		/* No NUMA in this kernel (or an old capture): one node with every CPU. */
		if (nicfit_sysfs_read_str(d->fs, "sys/devices/system/cpu/online", cpus,
					  sizeof(cpus), Q) != NICFIT_SYSFS_OK)
			cpus[0] = '\0';
		if (nicfit_topo_add_numa(t, 0, cpus, -1) < 0)
			return fail(d, NICFIT_E_NOMEM, "out of memory");
		return 0;
	}
	t->numa_from_sysfs = 1;
	{
		unsigned long cnt;
		long first;

		if (nicfit_parse_cpulist(online, &cnt, &first)) {
			nicfit_sysfs_report(d->fs, "sys/devices/system/node/online",
					    NICFIT_SYSFS_MALFORMED, 0, 0);
			return 0;
		}
	}
	/* Walk the list's members in order. */
	for (p = online; *p;) {
		long a = 0, b, n;

		while (*p >= '0' && *p <= '9')
			a = a * 10 + (*p++ - '0');
		b = a;
		if (*p == '-') {
			p++;
			b = 0;
			while (*p >= '0' && *p <= '9')
				b = b * 10 + (*p++ - '0');
		}
		if (*p == ',')
			p++;
		for (n = a; n <= b; n++) {
			long pkg = -1, cnt_first = -1;
			unsigned long cnt = 0;
			int idx;

			if (t->nnuma >= NICFIT_TOPO_MAX_NUMA)
				return fail(d, NICFIT_E_LIMIT, "more NUMA nodes than nicfit handles (64)");
			snprintf(path, sizeof(path), "sys/devices/system/node/node%ld/cpulist", n);
			if (nicfit_sysfs_read_str(d->fs, path, cpus, sizeof(cpus), 0) != NICFIT_SYSFS_OK)
				cpus[0] = '\0';
			if (cpus[0] && nicfit_parse_cpulist(cpus, &cnt, &cnt_first)) {
				nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
				cpus[0] = '\0';
				cnt_first = -1;
			}
			if (cnt_first >= 0) {
				snprintf(path, sizeof(path),
					 "sys/devices/system/cpu/cpu%ld/topology/physical_package_id",
					 cnt_first);
				if (nicfit_sysfs_read_long(d->fs, path, &pkg, Q) != NICFIT_SYSFS_OK ||
				    pkg < 0 || pkg > 65535)
					pkg = -1;
			}
			idx = nicfit_topo_add_numa(t, (int)n, cpus, (int)pkg);
			if (idx < 0)
				return fail(d, NICFIT_E_NOMEM, "out of memory");
			snprintf(path, sizeof(path), "sys/devices/system/node/node%ld/distance", n);
			if (nicfit_sysfs_read_str(d->fs, path, dist, sizeof(dist), 0) == NICFIT_SYSFS_OK) {
				struct nicfit_numa *nn = &t->numa[idx];
				char *s = dist;

				while (*s && nn->ndistance < NICFIT_TOPO_MAX_NUMA) {
					long v = 0;
					int k = 0;

					while (*s == ' ')
						s++;
					while (*s >= '0' && *s <= '9' && k < 6) {
						v = v * 10 + (*s++ - '0');
						k++;
					}
					if (!k || (*s && *s != ' ')) {
						nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
						nn->ndistance = 0;
						break;
					}
					nn->distance[nn->ndistance++] = (int)v;
					while (*s == ' ')
						s++;
				}
			}
		}
	}
	return 0;
}

/* ---- PCI ---------------------------------------------------------------------- */

static void read_link(struct disc *d, const char *dir, const char *name, double *gts,
		      char *text, size_t cap, unsigned have_bit, struct nicfit_pcidev *p)
{
	char path[P_MAX];
	enum nicfit_sysfs_status st;
	int r;

	pathf(path, sizeof(path), dir, name);
	st = nicfit_sysfs_read_str(d->fs, path, text, cap, 0);
	if (st == NICFIT_SYSFS_MISSING) {
		text[0] = '\0';
		return;
	}
	p->have |= NICFIT_HAVE_LINK_FILES;
	if (st != NICFIT_SYSFS_OK)
		return;
	r = nicfit_parse_link_speed(text, gts);
	if (r < 0)
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
	else if (r == 0)
		p->have |= have_bit;
}

static void read_width(struct disc *d, const char *dir, const char *name, int *w,
		       unsigned have_bit, struct nicfit_pcidev *p)
{
	char path[P_MAX];
	long v;
	enum nicfit_sysfs_status st;

	pathf(path, sizeof(path), dir, name);
	st = nicfit_sysfs_read_long(d->fs, path, &v, 0);
	if (st == NICFIT_SYSFS_MISSING)
		return;
	p->have |= NICFIT_HAVE_LINK_FILES;
	if (st != NICFIT_SYSFS_OK)
		return;
	if (v < 0 || v > 32) {
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		return;
	}
	if (v > 0) { /* 0 = link down or not trained */
		*w = (int)v;
		p->have |= have_bit;
	}
}

/* "KEY=value" lines of a uevent file: the value of key, NUL-terminated in out. */
static int uevent_get(const char *text, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			if (n - kl - 1 >= cap)
				return -1;
			memcpy(out, p + kl + 1, n - kl - 1);
			out[n - kl - 1] = '\0';
			return 0;
		}
		p += n;
		if (*p)
			p++;
	}
	return -1;
}

static int hex_exact(const char *s, size_t min, size_t max, unsigned long *out)
{
	char tmp[16];
	size_t n = strlen(s);

	if (n < min || n > max || snprintf(tmp, sizeof(tmp), "0x%s", s) >= (int)sizeof(tmp))
		return -1;
	return nicfit_parse_hex_id(tmp, out);
}

/*
 * The kernel's uevent file carries class, IDs, subsystem IDs and the
 * driver in one read (reference/topology.md 3.1). Returns 0 when it held
 * class and IDs.
 */
static int read_uevent(struct disc *d, struct nicfit_pcidev *p, const char *dir)
{
	char path[P_MAX], buf[NICFIT_SYSFS_TEXT_MAX], v[64];
	unsigned long c, a, b;
	size_t len;

	pathf(path, sizeof(path), dir, "uevent");
	if (nicfit_sysfs_read(d->fs, path, buf, sizeof(buf) - 1, &len, 0) != NICFIT_SYSFS_OK)
		return -1;
	buf[len] = '\0';
	if (strlen(buf) != len || uevent_get(buf, "PCI_CLASS", v, sizeof(v)) ||
	    hex_exact(v, 1, 6, &c) || uevent_get(buf, "PCI_ID", v, sizeof(v)) || strlen(v) != 9 ||
	    v[4] != ':') {
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		return -1;
	}
	v[4] = '\0';
	if (hex_exact(v, 4, 4, &a) || hex_exact(v + 5, 4, 4, &b)) {
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		return -1;
	}
	p->class_code = (unsigned)c;
	p->vendor = (unsigned)a;
	p->device = (unsigned)b;
	p->have |= NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS;
	if (!uevent_get(buf, "PCI_SUBSYS_ID", v, sizeof(v)) && strlen(v) == 9 && v[4] == ':') {
		v[4] = '\0';
		if (!hex_exact(v, 4, 4, &a) && !hex_exact(v + 5, 4, 4, &b)) {
			p->subvendor = (unsigned)a;
			p->subdevice = (unsigned)b;
			p->have |= NICFIT_HAVE_SUBSYS;
		}
	}
	if (!uevent_get(buf, "DRIVER", v, sizeof(v)))
		snprintf(p->driver, sizeof(p->driver), "%s", v);
	return 0;
}

static void read_pci(struct disc *d, int idx)
{
	struct nicfit_pcidev *p = &d->t->pci[idx];
	char dir[P_MAX], path[P_MAX], link[P_MAX];
	unsigned long v1, v2;
	long n;

	snprintf(dir, sizeof(dir), "%s", p->path);
	if (!read_uevent(d, p, dir))
		goto ids_done;
	pathf(path, sizeof(path), dir, "class");
	if (nicfit_sysfs_read_hex(d->fs, path, &v1, 0) == NICFIT_SYSFS_OK && v1 <= 0xffffff) {
		p->class_code = (unsigned)v1;
		p->have |= NICFIT_HAVE_CLASS;
	}
	pathf(path, sizeof(path), dir, "vendor");
	if (nicfit_sysfs_read_hex(d->fs, path, &v1, 0) == NICFIT_SYSFS_OK) {
		pathf(path, sizeof(path), dir, "device");
		if (nicfit_sysfs_read_hex(d->fs, path, &v2, 0) == NICFIT_SYSFS_OK &&
		    v1 <= 0xffff && v2 <= 0xffff) {
			p->vendor = (unsigned)v1;
			p->device = (unsigned)v2;
			p->have |= NICFIT_HAVE_IDS;
		}
	}
	pathf(path, sizeof(path), dir, "subsystem_vendor");
	if (nicfit_sysfs_read_hex(d->fs, path, &v1, 0) == NICFIT_SYSFS_OK) {
		pathf(path, sizeof(path), dir, "subsystem_device");
		if (nicfit_sysfs_read_hex(d->fs, path, &v2, 0) == NICFIT_SYSFS_OK &&
		    v1 <= 0xffff && v2 <= 0xffff) {
			p->subvendor = (unsigned)v1;
			p->subdevice = (unsigned)v2;
			p->have |= NICFIT_HAVE_SUBSYS;
		}
	}
	pathf(path, sizeof(path), dir, "driver");
	if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) == NICFIT_SYSFS_OK) {
		const char *b = strrchr(link, '/');

		snprintf(p->driver, sizeof(p->driver), "%s", b ? b + 1 : link);
	}
ids_done:
	pathf(path, sizeof(path), dir, "numa_node");
	if (nicfit_sysfs_read_long(d->fs, path, &n, 0) == NICFIT_SYSFS_OK) {
		p->have |= NICFIT_HAVE_NUMA;
		p->numa_node = n >= 0 && n < 4096 ? (int)n : -1;
	}
	read_link(d, dir, "current_link_speed", &p->cur_gts, p->cur_speed_text,
		  sizeof(p->cur_speed_text), NICFIT_HAVE_CUR_SPEED, p);
	read_width(d, dir, "current_link_width", &p->cur_width, NICFIT_HAVE_CUR_WIDTH, p);
	read_link(d, dir, "max_link_speed", &p->max_gts, p->max_speed_text,
		  sizeof(p->max_speed_text), NICFIT_HAVE_MAX_SPEED, p);
	read_width(d, dir, "max_link_width", &p->max_width, NICFIT_HAVE_MAX_WIDTH, p);
	if ((p->class_code >> 8) == 0x0604 || (p->class_code >> 8) == 0x0609) {
		pathf(path, sizeof(path), dir, "secondary_bus_number");
		if (nicfit_sysfs_read_long(d->fs, path, &n, 0) == NICFIT_SYSFS_OK && n >= 0 && n < 256) {
			p->secondary_bus = (int)n;
			p->have |= NICFIT_HAVE_SECBUS;
		}
		return;
	}
	/* SR-IOV: network, display and accelerator functions. */
	switch (p->class_code >> 16) {
	case 0x02: case 0x03: case 0x12: case 0x0b: case 0x0c:
		break;
	default:
		return;
	}
	pathf(path, sizeof(path), dir, "sriov_totalvfs");
	if (nicfit_sysfs_read_long(d->fs, path, &n, 0) == NICFIT_SYSFS_OK && n >= 0 && n < 65536) {
		p->sriov_totalvfs = (int)n;
		pathf(path, sizeof(path), dir, "sriov_numvfs");
		if (nicfit_sysfs_read_long(d->fs, path, &n, 0) == NICFIT_SYSFS_OK && n >= 0 &&
		    n < 65536)
			p->sriov_numvfs = (int)n;
	}
}

/* Resolve the PF of a VF once all functions are known. */
static void read_physfn(struct disc *d, int idx)
{
	struct nicfit_pcidev *p = &d->t->pci[idx];
	char path[P_MAX], link[P_MAX], canon[P_MAX];

	pathf(path, sizeof(path), p->path, "physfn");
	if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) != NICFIT_SYSFS_OK)
		return;
	if (join_link(p->path, link, canon, sizeof(canon)))
		return;
	p->physfn = hash_find(d, canon, strlen(canon));
}

/*
 * Get or create the functions on a canonical device path
 * ("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"). Returns the index
 * of the last function, or -1 when the path holds none.
 */
static int add_chain(struct disc *d, const char *path)
{
	struct nicfit_topo *t = d->t;
	size_t i = 0, len = strlen(path);
	int parent = -1, hb = -1, last = -1;
	size_t pend_s = 0, pend_n = 0; /* pending host bridge component */

	while (i < len) {
		size_t n = strcspn(path + i, "/");
		const char *c = path + i;

		if (is_bdf(c, n)) {
			int idx = hash_find(d, path, i + n);

			if (idx < 0) {
				char bdf[24];

				if (hb < 0) {
					char name[32];

					snprintf(name, sizeof(name), "%.*s",
						 (int)(pend_n ? pend_n : 0), path + pend_s);
					hb = nicfit_topo_add_hostbridge(t, pend_n ? name : "pci?", -1);
					if (hb < 0)
						return fail(d, NICFIT_E_NOMEM, "out of memory"), -1;
					t->hb[hb].path = strndup(path, pend_n ? pend_s + pend_n : i);
					t->hb[hb].parent_pci = parent >= 0 ? parent : -1;
					if (parent >= 0)
						parent = -1;
				}
				snprintf(bdf, sizeof(bdf), "%.*s", (int)n, c);
				if (t->npci >= NICFIT_TOPO_MAX_PCI)
					return fail(d, NICFIT_E_LIMIT,
						    "more PCI functions than nicfit handles (8192)"), -1;
				idx = nicfit_topo_add_pci(t, bdf, parent, hb);
				if (idx < 0)
					return fail(d, NICFIT_E_NOMEM, "out of memory"), -1;
				t->pci[idx].path = strndup(path, i + n);
				if (!t->pci[idx].path || hash_put(d, idx))
					return fail(d, NICFIT_E_NOMEM, "out of memory"), -1;
				if (t->pci[idx].depth >= NICFIT_TOPO_MAX_DEPTH)
					return fail(d, NICFIT_E_LIMIT, "PCI tree deeper than 32 levels"), -1;
				read_pci(d, idx);
			}
			parent = idx;
			hb = t->pci[idx].hostbridge;
			last = idx;
		} else if (is_pci_root(c, n)) {
			/* A (nested) domain root: the next function starts a new host bridge. */
			pend_s = i;
			pend_n = n;
			hb = -1;
			{
				/* an existing host bridge with this path? */
				int k;

				for (k = 0; k < t->nhb; k++)
					if (t->hb[k].path && strlen(t->hb[k].path) == i + n &&
					    !strncmp(t->hb[k].path, path, i + n)) {
						hb = k;
						parent = -1;
						break;
					}
			}
		} else if (last >= 0) {
			break; /* below the function: not part of the PCI chain */
		} else {
			pend_n = 0;
		}
		i += n;
		if (path[i] == '/')
			i++;
	}
	return last;
}

/* Fallback without a bus listing: walk sys/devices/pci* recursively. */
static void walk(struct disc *d, const char *dir, int depth)
{
	struct nicfit_dirent *ents;
	size_t n, i;

	if (depth > NICFIT_TOPO_MAX_DEPTH || d->rc ||
	    nicfit_sysfs_list(d->fs, dir, &ents, &n, 0) != NICFIT_SYSFS_OK)
		return;
	for (i = 0; i < n && !d->rc; i++) {
		char path[P_MAX];
		size_t len = strlen(ents[i].name);

		if (ents[i].type != NICFIT_DT_DIR)
			continue;
		if (!is_bdf(ents[i].name, len) && !is_pci_root(ents[i].name, len))
			continue;
		pathf(path, sizeof(path), dir, ents[i].name);
		if (!path[0])
			continue;
		if (is_bdf(ents[i].name, len))
			add_chain(d, path);
		walk(d, path, depth + 1);
	}
	free(ents);
}

static void read_pci_tree(struct disc *d)
{
	struct nicfit_dirent *ents;
	size_t n, i;
	enum nicfit_sysfs_status st;

	st = nicfit_sysfs_list(d->fs, "sys/bus/pci/devices", &ents, &n, 0);
	if (st == NICFIT_SYSFS_OK && n) {
		for (i = 0; i < n && !d->rc; i++) {
			char path[P_MAX], link[P_MAX], canon[P_MAX];
			int idx;

			pathf(path, sizeof(path), "sys/bus/pci/devices", ents[i].name);
			if (ents[i].type == NICFIT_DT_LINK) {
				if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) !=
				    NICFIT_SYSFS_OK ||
				    join_link("sys/bus/pci/devices", link, canon, sizeof(canon)))
					continue;
			} else if (nicfit_sysfs_resolve(d->fs, path, canon, sizeof(canon), 0) !=
				   NICFIT_SYSFS_OK) {
				continue;
			}
			idx = add_chain(d, canon);
			if (idx >= 0)
				d->t->pci[idx].in_bus_list = 1;
		}
		free(ents);
		return;
	}
	free(ents);
	{
		struct nicfit_dirent *top;
		size_t m;

		if (nicfit_sysfs_list(d->fs, "sys/devices", &top, &m, 0) != NICFIT_SYSFS_OK)
			return;
		for (i = 0; i < m && !d->rc; i++) {
			char path[P_MAX];

			if (top[i].type != NICFIT_DT_DIR ||
			    !is_pci_root(top[i].name, strlen(top[i].name)))
				continue;
			pathf(path, sizeof(path), "sys/devices", top[i].name);
			walk(d, path, 0);
		}
		free(top);
	}
}

static void read_slots(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents;
	size_t n, i;
	int j;

	if (nicfit_sysfs_list(d->fs, "sys/bus/pci/slots", &ents, &n, 0) != NICFIT_SYSFS_OK)
		return;
	for (i = 0; i < n; i++) {
		char path[P_MAX], addr[64], sp[32];
		unsigned dom, bus, dev;
		struct nicfit_pcislot *s;
		double gts;

		if (ents[i].type != NICFIT_DT_DIR)
			continue;
		snprintf(path, sizeof(path), "sys/bus/pci/slots/%s/address", ents[i].name);
		if (nicfit_sysfs_read_str(d->fs, path, addr, sizeof(addr), 0) != NICFIT_SYSFS_OK)
			continue;
		if (nicfit_parse_pci_addr(addr, &dom, &bus, &dev, NULL)) {
			char tmp[80];
			unsigned fn;

			/* some kernels print the function too */
			snprintf(tmp, sizeof(tmp), "%s", addr);
			if (nicfit_parse_pci_addr(tmp, &dom, &bus, &dev, &fn)) {
				nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
				continue;
			}
		}
		if (room((void **)&t->slots, t->nslots, sizeof(*t->slots))) {
			fail(d, NICFIT_E_NOMEM, "out of memory");
			break;
		}
		s = &t->slots[t->nslots++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", ents[i].name);
		s->domain = dom;
		s->bus = bus;
		s->dev = dev;
		s->pci = s->bridge = -1;
		snprintf(path, sizeof(path), "sys/bus/pci/slots/%s/max_bus_speed", ents[i].name);
		if (nicfit_sysfs_read_str(d->fs, path, sp, sizeof(sp), Q) == NICFIT_SYSFS_OK &&
		    !nicfit_parse_link_speed(sp, &gts))
			s->max_gts = gts;
		for (j = 0; j < t->npci; j++) {
			struct nicfit_pcidev *p = &t->pci[j];

			if (p->domain == dom && p->bus == bus && p->dev == dev) {
				if (s->pci < 0)
					s->pci = j;
				snprintf(p->slot, sizeof(p->slot), "%s", s->name);
			}
			if (p->domain == dom && p->secondary_bus == (int)bus && s->bridge < 0)
				s->bridge = j;
		}
	}
	free(ents);
}

/* The function whose path is the longest prefix of path (a class device). */
static int owner_of(struct disc *d, const char *path)
{
	size_t n = strlen(path);

	while (n > 0) {
		int idx;

		while (n > 0 && path[n - 1] != '/')
			n--;
		if (n == 0)
			break;
		n--; /* drop the slash */
		idx = hash_find(d, path, n);
		if (idx >= 0)
			return idx;
	}
	return -1;
}

static int class_link(struct disc *d, const char *cls, const char *name, char *canon, size_t cap)
{
	char path[P_MAX], link[P_MAX], dir[P_MAX];

	snprintf(dir, sizeof(dir), "sys/class/%s", cls);
	pathf(path, sizeof(path), dir, name);
	if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) != NICFIT_SYSFS_OK)
		return -1;
	return join_link(dir, link, canon, cap);
}

static void read_net(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents;
	size_t n, i;

	if (nicfit_sysfs_list(d->fs, "sys/class/net", &ents, &n, 0) != NICFIT_SYSFS_OK)
		return;
	for (i = 0; i < n && !d->rc; i++) {
		char canon[P_MAX], path[P_MAX], s[64];
		struct nicfit_netdev *nd;
		enum nicfit_sysfs_status st;
		long v;
		int idx;

		if (ents[i].type != NICFIT_DT_LINK || class_link(d, "net", ents[i].name, canon,
								   sizeof(canon)))
			continue;
		idx = nicfit_topo_add_netdev(t, ents[i].name, owner_of(d, canon));
		if (idx < 0) {
			fail(d, NICFIT_E_LIMIT, "too many network interfaces");
			break;
		}
		nd = &t->net[idx];
		if (!strncmp(canon, "sys/devices/virtual/", 20)) {
			nd->is_virtual = 1;
			continue;
		}
		pathf(path, sizeof(path), canon, "type");
		st = nicfit_sysfs_read_long(d->fs, path, &v, 0);
		if (st == NICFIT_SYSFS_LOOP || st == NICFIT_SYSFS_MISSING) {
			t->nnet--; /* a link that leads nowhere names no interface */
			continue;
		}
		if (st == NICFIT_SYSFS_OK && v >= 0 && v < 65536)
			nd->type = (int)v;
		pathf(path, sizeof(path), canon, "mtu");
		if (nicfit_sysfs_read_long(d->fs, path, &v, 0) == NICFIT_SYSFS_OK && v > 0 && v < 1 << 20)
			nd->mtu = (int)v;
		pathf(path, sizeof(path), canon, "operstate");
		nicfit_sysfs_read_str(d->fs, path, nd->operstate, sizeof(nd->operstate), 0);
		/* speed and carrier fail with EINVAL while the interface is down */
		pathf(path, sizeof(path), canon, "carrier");
		if (nicfit_sysfs_read_long(d->fs, path, &v, Q) == NICFIT_SYSFS_OK)
			nd->carrier = v ? 1 : 0;
		pathf(path, sizeof(path), canon, "speed");
		if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) == NICFIT_SYSFS_OK &&
		    !nicfit_parse_dec(s, -1, 100000000, &v))
			nd->speed_mbps = v > 0 ? v : -1;
	}
	free(ents);
}

static int link_local(const uint8_t g[16])
{
	return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

static void read_port(struct disc *d, const char *dev, const char *num, struct nicfit_rdma_port *pt)
{
	char dir[P_MAX], path[P_MAX], s[128];
	long v;
	int empty = 0, k;

	snprintf(dir, sizeof(dir), "%s/ports/%s", dev, num);
	pt->num = nicfit_parse_dec(num, 0, 255, &v) ? 0 : (int)v;
	pt->state = pt->phys_state = -1;
	pt->gid_v2_index = -1;
	pathf(path, sizeof(path), dir, "state");
	if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), 0) == NICFIT_SYSFS_OK &&
	    nicfit_parse_ib_state(s, &pt->state, pt->state_name, sizeof(pt->state_name)))
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
	pathf(path, sizeof(path), dir, "phys_state");
	if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), 0) == NICFIT_SYSFS_OK &&
	    nicfit_parse_ib_state(s, &pt->phys_state, pt->phys_name, sizeof(pt->phys_name)))
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
	pathf(path, sizeof(path), dir, "rate");
	if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) == NICFIT_SYSFS_OK) {
		if (nicfit_parse_ib_rate(s, &pt->rate))
			nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		else
			pt->have_rate = 1;
	}
	pathf(path, sizeof(path), dir, "link_layer");
	nicfit_sysfs_read_str(d->fs, path, pt->link_layer, sizeof(pt->link_layer), 0);
	/* GIDs: InfiniBand needs only GID 0; RoCE ports carry one per address. */
	for (k = 0; k < MAX_GID_SCAN && empty < GID_EMPTY_RUN; k++) {
		uint8_t g[16];
		int zero = 1, j;

		snprintf(path, sizeof(path), "%s/gids/%d", dir, k);
		if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) != NICFIT_SYSFS_OK)
			break;
		if (nicfit_parse_gid(s, g)) {
			nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
			empty++;
			continue;
		}
		for (j = 0; j < 16; j++)
			zero &= !g[j];
		if (zero) {
			empty++;
			continue;
		}
		empty = 0;
		pt->ngids++;
		if (strcmp(pt->link_layer, "Ethernet"))
			break;
		snprintf(path, sizeof(path), "%s/gid_attrs/types/%d", dir, k);
		if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) == NICFIT_SYSFS_OK) {
			enum nicfit_gid_type ty = nicfit_parse_gid_type(s);

			pt->gid_types_known = 1;
			if (ty == NICFIT_GID_IB_ROCE1) {
				pt->ngid_v1++;
			} else if (ty == NICFIT_GID_ROCE2) {
				pt->ngid_v2++;
				if (!link_local(g)) {
					pt->ngid_v2_routable++;
					if (pt->gid_v2_index < 0)
						pt->gid_v2_index = k;
				}
			} else {
				nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
			}
		}
	}
}

static void read_rdma(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents, *ports;
	size_t n, np, i, j;

	if (nicfit_sysfs_list(d->fs, "sys/class/infiniband", &ents, &n, 0) != NICFIT_SYSFS_OK)
		return;
	for (i = 0; i < n && !d->rc; i++) {
		char canon[P_MAX], path[P_MAX], dir[P_MAX];
		struct nicfit_rdmadev *r;
		int idx;

		if (ents[i].type != NICFIT_DT_LINK || class_link(d, "infiniband", ents[i].name, canon,
								   sizeof(canon)))
			continue;
		idx = nicfit_topo_add_rdma(t, ents[i].name,
					   strncmp(canon, "sys/devices/virtual/", 20) ?
					   owner_of(d, canon) : -1);
		if (idx < 0) {
			fail(d, NICFIT_E_LIMIT, "too many RDMA devices");
			break;
		}
		r = &t->rdma[idx];
		snprintf(dir, sizeof(dir), "%s", canon);
		pathf(path, sizeof(path), dir, "node_type");
		nicfit_sysfs_read_str(d->fs, path, r->node_type, sizeof(r->node_type), Q);
		pathf(path, sizeof(path), dir, "hca_type");
		nicfit_sysfs_read_str(d->fs, path, r->hca_type, sizeof(r->hca_type), Q);
		pathf(path, sizeof(path), dir, "fw_ver");
		nicfit_sysfs_read_str(d->fs, path, r->fw_ver, sizeof(r->fw_ver), Q);
		pathf(path, sizeof(path), dir, "board_id");
		nicfit_sysfs_read_str(d->fs, path, r->board_id, sizeof(r->board_id), Q);
		pathf(path, sizeof(path), dir, "ports");
		if (nicfit_sysfs_list(d->fs, path, &ports, &np, 0) != NICFIT_SYSFS_OK)
			continue;
		for (j = 0; j < np && r->nports < NICFIT_TOPO_MAX_PORTS; j++) {
			long v;

			if (nicfit_parse_dec(ports[j].name, 0, 255, &v))
				continue;
			read_port(d, dir, ports[j].name, &r->ports[r->nports++]);
		}
		free(ports);
	}
	free(ents);
}

/*
 * PFC of the interfaces of RoCE ports: DCB netlink on the live host (the
 * answer is recorded for snapshots), a snapshot's nicfit-dcb/IFNAME file
 * otherwise.
 */
static void read_pfc(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	int i, k, j;

	for (i = 0; i < t->nnet; i++) {
		struct nicfit_netdev *nd = &t->net[i];
		char path[P_MAX], text[64];
		int roce = 0;

		if (nd->pci < 0 || nd->is_virtual)
			continue;
		for (k = 0; k < t->nrdma && !roce; k++)
			if (t->rdma[k].pci == nd->pci)
				for (j = 0; j < t->rdma[k].nports; j++)
					roce |= !strcmp(t->rdma[k].ports[j].link_layer, "Ethernet");
		if (!roce)
			continue;
		snprintf(path, sizeof(path), "nicfit-dcb/%s", nd->name);
		if (t->live) {
			struct nicfit_error e;

			nicfit_error_clear(&e);
			if (!nicfit_dcb_pfc(nd->name, &nd->pfc, &e) &&
			    !nicfit_dcb_format(&nd->pfc, text, sizeof(text)))
				nicfit_sysfs_record_data(d->fs, path, text, strlen(text));
		} else if (nicfit_sysfs_read_str(d->fs, path, text, sizeof(text), Q) == NICFIT_SYSFS_OK &&
			   nicfit_dcb_parse_file(text, &nd->pfc)) {
			nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		}
	}
}

static void read_gdr(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents;
	size_t n;

	t->nv_mem = nicfit_sysfs_exists(d->fs, "sys/kernel/mm/memory_peers/nv_mem/version");
	t->nv_mem_nc = nicfit_sysfs_exists(d->fs, "sys/kernel/mm/memory_peers/nv_mem_nc/version");
	t->nvidia_peermem = nicfit_sysfs_exists(d->fs, "sys/module/nvidia_peermem");
	t->nv_peer_mem = nicfit_sysfs_exists(d->fs, "sys/module/nv_peer_mem");
	t->nvidia_driver = nicfit_sysfs_exists(d->fs, "sys/module/nvidia");
	if (t->nvidia_driver)
		nicfit_sysfs_read_str(d->fs, "sys/module/nvidia/version", t->nvidia_version,
				      sizeof(t->nvidia_version), Q);
	if (nicfit_sysfs_list(d->fs, "sys/class/iommu", &ents, &n, Q) == NICFIT_SYSFS_OK) {
		t->iommu = n > 0;
		free(ents);
	} else {
		t->iommu = -1;
	}
}

/* ---- per-device extras: config space, VPD, IOMMU group ------------------- */

static unsigned rd16(const unsigned char *c, int o)
{
	return (unsigned)c[o] | (unsigned)c[o + 1] << 8;
}

static unsigned long rd32(const unsigned char *c, int o)
{
	return (unsigned long)rd16(c, o) | (unsigned long)rd16(c, o + 2) << 16;
}

static void parse_config(struct nicfit_pcidev *p, const unsigned char *c, int len)
{
	int ptr, guard;

	p->cfg_len = len;
	if (len < 64 || !(rd16(c, 6) & 0x10))
		return;
	ptr = c[0x34] & 0xfc;
	for (guard = 0; ptr >= 0x40 && ptr + 0x14 <= len && guard < 48; guard++) {
		if (c[ptr] == 0x10) {
			unsigned flags = rd16(c, ptr + 2);
			unsigned devcap = (unsigned)rd32(c, ptr + 4);
			unsigned devctl = rd16(c, ptr + 8);
			unsigned long lnkcap = rd32(c, ptr + 0x0c);
			unsigned lnksta = rd16(c, ptr + 0x12);
			static const enum nicfit_port_type types[] = {
				NICFIT_PORT_ENDPOINT, NICFIT_PORT_LEGACY, NICFIT_PORT_UNKNOWN,
				NICFIT_PORT_UNKNOWN, NICFIT_PORT_ROOT, NICFIT_PORT_UPSTREAM,
				NICFIT_PORT_DOWNSTREAM, NICFIT_PORT_PCIE_TO_PCI, NICFIT_PORT_UNKNOWN,
				NICFIT_PORT_RCIEP, NICFIT_PORT_RCEC
			};
			unsigned ty = (flags >> 4) & 0xf;

			p->cfg_pcie = 1;
			if (ty < sizeof(types) / sizeof(types[0]) && types[ty] != NICFIT_PORT_UNKNOWN) {
				p->port_type = types[ty];
				p->port_type_from_config = 1;
			}
			p->mps_cap = 128 << (devcap & 7);
			p->mps = 128 << ((devctl >> 5) & 7);
			p->mrrs = 128 << ((devctl >> 12) & 7);
			p->lnkcap_gen = (int)(lnkcap & 0xf);
			p->lnkcap_width = (int)((lnkcap >> 4) & 0x3f);
			p->lnksta_gen = (int)(lnksta & 0xf);
			p->lnksta_width = (int)((lnksta >> 4) & 0x3f);
			break;
		}
		ptr = c[ptr + 1] & 0xfc;
	}
	if (!p->cfg_pcie || len < 0x104)
		return;
	ptr = 0x100;
	for (guard = 0; ptr >= 0x100 && ptr + 8 <= len && guard < 128; guard++) {
		unsigned long h = rd32(c, ptr);

		if (h == 0 || h == 0xffffffffUL)
			break;
		if ((h & 0xffff) == 0x000d) {
			p->acs = 1;
			p->acs_ctrl = rd16(c, ptr + 6);
			break;
		}
		ptr = (int)((h >> 20) & 0xffc);
	}
}

static void read_extras(struct disc *d, int idx, int want_vpd)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_pcidev *p = &t->pci[idx];
	unsigned char buf[NICFIT_SYSFS_BIN_MAX];
	char path[P_MAX], link[P_MAX], canon[P_MAX];
	size_t len;
	enum nicfit_sysfs_status st;

	if (p->probed && !want_vpd)
		return;
	if (!p->probed) {
		size_t want = p->kind == NICFIT_DEV_BRIDGE ? 4096 : 256;

		pathf(path, sizeof(path), p->path, "config");
		st = nicfit_sysfs_read(d->fs, path, buf, want, &len, Q);
		if ((st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG) && len >= 64) {
			parse_config(p, buf, (int)len);
			if (len > 64)
				t->privileged = 1;
		}
	}
	if (!p->probed && p->kind != NICFIT_DEV_BRIDGE) {
		pathf(path, sizeof(path), p->path, "iommu_group");
		if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) == NICFIT_SYSFS_OK &&
		    !join_link(p->path, link, canon, sizeof(canon))) {
			char tp[P_MAX];

			pathf(tp, sizeof(tp), canon, "type");
			nicfit_sysfs_read_str(d->fs, tp, p->iommu_type, sizeof(p->iommu_type), Q);
		}
	}
	p->probed = 1;
	if (want_vpd && !p->vpd_state) {
		pathf(path, sizeof(path), p->path, "vpd");
		st = nicfit_sysfs_read(d->fs, path, buf, sizeof(buf), &len, Q);
		if (st == NICFIT_SYSFS_MISSING) {
			p->vpd_state = 4;
		} else if (st != NICFIT_SYSFS_OK) {
			p->vpd_state = 2;
		} else {
			struct nicfit_vpd *v = malloc(sizeof(*v));
			struct nicfit_error e;
			const char *s;

			nicfit_error_clear(&e);
			if (!v) {
				p->vpd_state = 2;
				return;
			}
			if (nicfit_vpd_parse(buf, len, v, &e) && !v->nkw) {
				p->vpd_state = len ? 3 : 4;
				if (len)
					nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
			} else {
				p->vpd_state = 1;
				snprintf(p->vpd_name, sizeof(p->vpd_name), "%s", v->name);
				s = nicfit_vpd_get(v, "PN");
				snprintf(p->vpd_part, sizeof(p->vpd_part), "%s", s ? s : "");
				s = nicfit_vpd_get(v, "V0");
				if (s && !strncmp(s, "PCIe", 4))
					snprintf(p->vpd_pcie, sizeof(p->vpd_pcie), "%s", s);
				p->vpd_checksum = (int)v->checksum;
			}
			free(v);
		}
	}
}

static int interesting(enum nicfit_dev_kind k)
{
	return k == NICFIT_DEV_GPU || k == NICFIT_DEV_ACCEL || k == NICFIT_DEV_NIC ||
	       k == NICFIT_DEV_NVSWITCH;
}

static void read_all_extras(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	int i, k, chain[2 * NICFIT_TOPO_MAX_DEPTH];

	for (i = 0; i < t->npci; i++) {
		struct nicfit_pcidev *p = &t->pci[i];
		int n, vpd;

		if (!interesting(p->kind))
			continue;
		vpd = p->kind == NICFIT_DEV_NIC && p->physfn < 0 && p->fn == 0;
		read_extras(d, i, vpd);
		n = nicfit_topo_chain(t, i, chain, (int)(sizeof(chain) / sizeof(chain[0])));
		for (k = 0; k < n - 1; k++)
			read_extras(d, chain[k], 0);
	}
}

static void copy_problems(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	size_t n = nicfit_sysfs_problem_count(d->fs), kept, i;

	t->problems_total = n;
	kept = n < NICFIT_SYSFS_MAX_PROBLEMS ? n : NICFIT_SYSFS_MAX_PROBLEMS;
	if (!kept)
		return;
	t->problems = calloc(kept, sizeof(*t->problems));
	if (!t->problems)
		return;
	for (i = 0; i < kept; i++) {
		const char *path;

		nicfit_sysfs_problem(d->fs, i, &path, &t->problems[i].st, &t->problems[i].errnum);
		t->problems[i].path = strdup(path);
	}
	t->nproblems = (int)kept;
}

int nicfit_topo_discover_fs(struct nicfit_sysfs *fs, struct nicfit_topo **out,
			    struct nicfit_error *err)
{
	struct disc d;
	int i;

	*out = NULL;
	memset(&d, 0, sizeof(d));
	d.fs = fs;
	d.err = err;
	d.t = nicfit_topo_new();
	if (!d.t)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	snprintf(d.t->root, sizeof(d.t->root), "%s", nicfit_sysfs_root(fs));
	d.t->live = nicfit_sysfs_is_live(fs);
	read_host(&d);
	if (!d.rc)
		read_numa(&d);
	if (!d.rc)
		read_pci_tree(&d);
	for (i = 0; !d.rc && i < d.t->npci; i++)
		if (d.t->pci[i].sriov_totalvfs < 0 && d.t->pci[i].kind == NICFIT_DEV_OTHER &&
		    ((d.t->pci[i].class_code >> 16) == 0x02 || (d.t->pci[i].class_code >> 16) == 0x03 ||
		     (d.t->pci[i].class_code >> 16) == 0x12))
			read_physfn(&d, i);
	if (!d.rc)
		read_slots(&d);
	if (!d.rc)
		read_net(&d);
	if (!d.rc)
		read_rdma(&d);
	if (!d.rc)
		read_pfc(&d);
	if (!d.rc)
		read_gdr(&d);
	if (!d.rc) {
		nicfit_topo_finish(d.t);
		read_all_extras(&d);
		/* config space may have named port types: infer the rest again */
		for (i = 0; i < d.t->npci; i++)
			infer_port_type(d.t, i);
	}
	copy_problems(&d);
	free(d.hash);
	if (d.rc) {
		nicfit_topo_free(d.t);
		return d.rc;
	}
	*out = d.t;
	return 0;
}

int nicfit_topo_discover(const char *root, struct nicfit_topo **out,
			 struct nicfit_error *err)
{
	struct nicfit_sysfs *fs;
	int rc;

	*out = NULL;
	rc = nicfit_sysfs_open(root, &fs, err);
	if (rc)
		return rc;
	rc = nicfit_topo_discover_fs(fs, out, err);
	nicfit_sysfs_close(fs);
	return rc;
}
