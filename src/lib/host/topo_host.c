/*
 * topo_host.c - discovery of the host itself: its name and kernel, the
 * evidence that it is a virtual machine, its NUMA nodes and the packages
 * they sit on, and the kernel pieces GPUDirect RDMA needs.
 *
 * These are the facts that are not about one PCI function; the PCI tree
 * is topo_pci.c's.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/alloc_int.h"
#include "core/fmt_int.h"
#include "host/topo_int.h"

#define Q NICFIT_SYSFS_QUIET

/* proc/version is one line of some 150 to 250 bytes (release, compiler, build). */
#define VERSION_READ_MAX 1024
/* proc/cpuinfo is read up to this much: the first CPU's flags line is in it. */
#define CPUINFO_READ_MAX 16384
/*
 * physical_package_id is the kernel's int: -1 (firmware that gives none)
 * and what no int holds count as unknown. It is not small everywhere:
 * ia64 numbers packages 0, 1, 256, 257, 65536, ... (hwloc's captures of
 * SGI Altix and HP Integrity machines).
 */
#define PACKAGE_ID_MAX INT_MAX
/* A SLIT distance is at most 255 (ACPI), so more than 6 digits is junk. */
#define DISTANCE_DIGITS_MAX 6
/* More distinct packages than this is not a server's topology files. */
#define PACKAGES_MAX 256
/* A CPU or node number has at most 7 digits (below 1 << 22, as nicfit_parse_cpulist takes). */
#define CPU_DIGITS_MAX 7

/* ---- identity --------------------------------------------------------------- */

/*
 * Whether this is a virtual machine, and the evidence, strongest first:
 * the hypervisor's own sysfs node, the CPU's 'hypervisor' flag (set by
 * every hypervisor that follows the x86 convention), then DMI names that
 * only virtual platforms use.
 */
static void read_virtual(struct disc *d)
{
	static const char *const vm_products[] = {
		"KVM", "Virtual Machine", "VMware Virtual Platform", "VirtualBox",
		"Standard PC (Q35 + ICH9, 2009)", "Standard PC (i440FX + PIIX, 1996)",
		"Google Compute Engine", "OpenStack Compute", "HVM domU", NULL
	};
	struct nicfit_topo *t = d->t;
	char buf[CPUINFO_READ_MAX];
	enum nicfit_sysfs_status st;
	size_t len;
	int i;

	if (nicfit_sysfs_read_str(d->fs, "sys/hypervisor/type", buf, 64, Q) == NICFIT_SYSFS_OK &&
	    buf[0]) {
		t->is_virtual = 1;
		nicfit__fmt(t->virtual_why, sizeof(t->virtual_why), "sys/hypervisor/type is %s", buf);
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
				nicfit__fmt(t->virtual_why, sizeof(t->virtual_why),
					 "the CPU flag 'hypervisor' is set");
				return;
			}
		}
	}
	for (i = 0; vm_products[i]; i++)
		if (!strcmp(t->product, vm_products[i])) {
			t->is_virtual = 1;
			nicfit__fmt(t->virtual_why, sizeof(t->virtual_why), "DMI product '%s'",
				 t->product);
			return;
		}
	if (!strcmp(t->sys_vendor, "QEMU")) {
		t->is_virtual = 1;
		nicfit__fmt(t->virtual_why, sizeof(t->virtual_why), "DMI vendor 'QEMU'");
	}
}

/*
 * The release in proc/version, "Linux version 3.10.0-1160.el7.x86_64
 * (mockbuild@...) ...": its third word, for a copy of a host that kept
 * that file but not proc/sys/kernel. Anything else leaves it unknown.
 */
static void read_proc_version(struct disc *d)
{
	static const char head[] = "Linux version ";
	char buf[VERSION_READ_MAX];
	size_t n;

	if (nicfit_sysfs_read_str(d->fs, "proc/version", buf, sizeof(buf), Q) != NICFIT_SYSFS_OK ||
	    strncmp(buf, head, sizeof(head) - 1))
		return;
	for (n = sizeof(head) - 1; buf[n] > ' ' && buf[n] < 0x7f; n++)
		;
	if (n == sizeof(head) - 1 || (buf[n] && buf[n] != ' ') ||
	    n - (sizeof(head) - 1) >= sizeof(d->t->kernel))
		return;
	buf[n] = '\0';
	nicfit__topo_copy(d->t->kernel, sizeof(d->t->kernel), buf + sizeof(head) - 1);
}

/*
 * A DMI name: sys/class/dmi/id is a link into sys/devices/virtual/dmi/id,
 * and a copy that kept only the devices tree has the names there.
 */
static void read_dmi(struct disc *d, const char *name, char *out, size_t cap)
{
	char path[TOPO_PATH_MAX];

	nicfit__topo_pathf(path, sizeof(path), "sys/class/dmi/id", name);
	if (nicfit_sysfs_read_str(d->fs, path, out, cap, Q) != NICFIT_SYSFS_MISSING)
		return;
	nicfit__topo_pathf(path, sizeof(path), "sys/devices/virtual/dmi/id", name);
	nicfit_sysfs_read_str(d->fs, path, out, cap, Q);
}

void nicfit__topo_read_host(struct disc *d)
{
	struct nicfit_topo *t = d->t;

	nicfit_sysfs_read_str(d->fs, "proc/sys/kernel/hostname", t->hostname,
			      sizeof(t->hostname), Q);
	if (nicfit_sysfs_read_str(d->fs, "proc/sys/kernel/osrelease", t->kernel, sizeof(t->kernel),
				  Q) == NICFIT_SYSFS_MISSING)
		read_proc_version(d);
	if (t->live) {
		struct utsname u;

		if (!uname(&u)) {
			if (!t->hostname[0])
				nicfit__topo_copy(t->hostname, sizeof(t->hostname), u.nodename);
			if (!t->kernel[0])
				nicfit__topo_copy(t->kernel, sizeof(t->kernel), u.release);
		}
		t->euid = (int)geteuid();
	}
	read_dmi(d, "sys_vendor", t->sys_vendor, sizeof(t->sys_vendor));
	read_dmi(d, "product_name", t->product, sizeof(t->product));
	read_virtual(d);
}

/* ---- NUMA ------------------------------------------------------------------- */

/*
 * A node's SLIT row, "10 21 21 10 ...", into nn->distance; a malformed
 * row is a problem and leaves no distances.
 */
static void read_distance(struct disc *d, const char *path, struct nicfit_numa *nn)
{
	char dist[1024], *s = dist;

	if (nicfit_sysfs_read_str(d->fs, path, dist, sizeof(dist), 0) != NICFIT_SYSFS_OK)
		return;
	while (*s && nn->ndistance < NICFIT_TOPO_MAX_NUMA) {
		long v = 0;
		int k = 0;

		while (*s == ' ')
			s++;
		while (*s >= '0' && *s <= '9' && k < DISTANCE_DIGITS_MAX) {
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

const char *nicfit__topo_list_range(const char *p, long *a, long *b)
{
	*a = 0;
	while (*p >= '0' && *p <= '9')
		*a = *a * 10 + (*p++ - '0');
	*b = *a;
	if (*p == '-') {
		p++;
		*b = 0;
		while (*p >= '0' && *p <= '9')
			*b = *b * 10 + (*p++ - '0');
	}
	if (*p == ',')
		p++;
	return p;
}

/*
 * Append cpu, above every member of the valid list at list, to it
 * ("0-3" and 4 make "0-4"). Returns -1 when the list would not fit.
 */
static int list_add(char *list, size_t cap, long cpu)
{
	size_t len = strlen(list);
	char *tail = strrchr(list, ',');
	long a, b;
	int k;

	tail = tail ? tail + 1 : list;
	if (len) {
		nicfit__topo_list_range(tail, &a, &b);
		if (b + 1 == cpu) {
			k = snprintf(tail, cap - (size_t)(tail - list), "%ld-%ld", a, cpu);
			if (k < 0 || (size_t)k >= cap - (size_t)(tail - list))
				return -1;
			return 0;
		}
	}
	k = snprintf(list + len, cap - len, "%s%ld", len ? "," : "", cpu);
	if (k < 0 || (size_t)k >= cap - len) {
		list[len] = '\0';
		return -1;
	}
	return 0;
}

/*
 * A set of CPUs as the kernel gives it in dir: the list file, or on
 * kernels before the lists (2.6.2x) the mask file beside it. Returns 0
 * with the list in out, or -1 when neither is there and well formed.
 */
static int read_cpuset(struct disc *d, const char *dir, const char *list, const char *mask,
		       char *out, size_t cap, unsigned flags)
{
	char path[TOPO_PATH_MAX], text[NICFIT_SYSFS_TEXT_MAX];
	enum nicfit_sysfs_status st;
	unsigned long cnt;
	long first;
	int r;

	nicfit__topo_pathf(path, sizeof(path), dir, list);
	st = nicfit_sysfs_read_str(d->fs, path, out, cap, flags);
	if (st == NICFIT_SYSFS_OK) {
		if (!nicfit_parse_cpulist(out, &cnt, &first))
			return 0;
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		out[0] = '\0';
		return -1;
	}
	out[0] = '\0';
	if (st != NICFIT_SYSFS_MISSING)
		return -1;
	nicfit__topo_pathf(path, sizeof(path), dir, mask);
	if (nicfit_sysfs_read_str(d->fs, path, text, sizeof(text), flags) != NICFIT_SYSFS_OK)
		return -1;
	r = nicfit_parse_cpumask(text, out, cap);
	if (r) {
		nicfit_sysfs_report(d->fs, path, r == -2 ? NICFIT_SYSFS_TOO_BIG :
				    NICFIT_SYSFS_MALFORMED, 0, 0);
		return -1;
	}
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The numbers N of the entries "<prefix>N" of dir, in order (the listing
 * is by name: node10 before node2). Returns their count, -1 when dir
 * cannot be listed or memory ran out (*out is then NULL).
 */
static long numbered_dirs(struct disc *d, const char *dir, const char *prefix, long **out)
{
	struct nicfit_dirent *ents;
	size_t n, i, len = strlen(prefix), alloc = 0;
	long *v = NULL, nv = 0;

	*out = NULL;
	if (nicfit_sysfs_list(d->fs, dir, &ents, &n, NICFIT_SYSFS_SUBDIRS | Q) != NICFIT_SYSFS_OK)
		return -1;
	for (i = 0; i < n; i++) {
		const char *p = ents[i].name + len;
		long x = 0;
		int k = 0;

		if (ents[i].type != NICFIT_DT_DIR || strncmp(ents[i].name, prefix, len))
			continue;
		while (*p >= '0' && *p <= '9' && k < CPU_DIGITS_MAX) {
			x = x * 10 + (*p++ - '0');
			k++;
		}
		if (!k || *p)
			continue;
		if (NICFIT_ALLOC_GROW(v, (size_t)nv + 1, alloc)) {
			free(v);
			free(ents);
			nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
			return -1;
		}
		v[nv++] = x;
	}
	free(ents);
	if (nv)
		qsort(v, (size_t)nv, sizeof(*v), cmp_long);
	*out = v;
	return nv;
}

/*
 * The online CPUs into out: cpu/online, or where a kernel has no such
 * file (before 2.6.2x) the cpuN directories whose cpuN/online does not
 * say 0 (cpu0 often has none: it cannot go offline), as hwloc reads them.
 * Returns 0, or -1 when neither says.
 */
static int read_online(struct disc *d, char *out, size_t cap)
{
	char path[TOPO_PATH_MAX];
	enum nicfit_sysfs_status st;
	unsigned long cnt;
	long first, *cpu, n, i, on;

	st = nicfit_sysfs_read_str(d->fs, "sys/devices/system/cpu/online", out, cap, Q);
	if (st == NICFIT_SYSFS_OK && !nicfit_parse_cpulist(out, &cnt, &first))
		return 0;
	out[0] = '\0';
	if (st != NICFIT_SYSFS_MISSING)
		return -1;
	n = numbered_dirs(d, "sys/devices/system/cpu", "cpu", &cpu);
	if (n <= 0)
		return -1;
	for (i = 0; i < n; i++) {
		nicfit__fmt(path, sizeof(path), "sys/devices/system/cpu/cpu%ld/online", cpu[i]);
		if (nicfit_sysfs_read_long(d->fs, path, &on, Q) == NICFIT_SYSFS_OK && on == 0)
			continue;
		if (list_add(out, cap, cpu[i])) {
			out[0] = '\0';
			free(cpu);
			return -1;
		}
	}
	free(cpu);
	return 0;
}

struct packages {
	long id[PACKAGES_MAX];
	/*
	 * The package's CPUs: its core_siblings_list (or mask), else the
	 * CPUs read to be on it. Every online CPU whose package was read is
	 * in its package's list.
	 */
	char cpus[PACKAGES_MAX][512];
	int n;
};

/*
 * The package of online CPU cpu, unless a package already seen holds it
 * (its core_siblings_list, the CPUs of one package, names it): that way
 * a host reads two files per socket, not one per CPU.
 */
static void read_cpu_package(struct disc *d, long cpu, struct packages *pk)
{
	char path[TOPO_PATH_MAX], dir[TOPO_PATH_MAX], sib[512];
	long id;
	int i;

	for (i = 0; i < pk->n; i++)
		if (nicfit_cpulist_has(pk->cpus[i], cpu))
			return;
	nicfit__fmt(dir, sizeof(dir), "sys/devices/system/cpu/cpu%ld/topology", cpu);
	nicfit__topo_pathf(path, sizeof(path), dir, "physical_package_id");
	if (nicfit_sysfs_read_long(d->fs, path, &id, Q) != NICFIT_SYSFS_OK || id < 0 ||
	    id > PACKAGE_ID_MAX)
		return;
	if (read_cpuset(d, dir, "core_siblings_list", "core_siblings", sib, sizeof(sib), Q) ||
	    !nicfit_cpulist_has(sib, cpu))
		sib[0] = '\0';
	for (i = 0; i < pk->n; i++)
		if (pk->id[i] == id)
			break;
	if (i == pk->n) {
		if (pk->n == PACKAGES_MAX)
			return;
		pk->id[pk->n++] = id;
	}
	if (sib[0] && !pk->cpus[i][0])
		nicfit__topo_copy(pk->cpus[i], sizeof(pk->cpus[i]), sib);
	else
		list_add(pk->cpus[i], sizeof(pk->cpus[i]), cpu);
}

/*
 * Sockets are CPU packages, not NUMA nodes: sub-NUMA clustering puts two
 * nodes on one package, and some firmware one node over two packages. So
 * count the distinct physical_package_id of the online CPUs (as hwloc
 * does, docs/reference/topology.md); none (unknown) when none is readable.
 */
static void read_packages(struct disc *d, const char *online, struct packages *pk)
{
	const char *p;
	long a, b, n;

	for (p = online; *p;) {
		p = nicfit__topo_list_range(p, &a, &b);
		for (n = a; n <= b; n++)
			read_cpu_package(d, n, pk);
	}
}

/*
 * The package a node sits on: the one that holds all of its online CPUs
 * (a node's list may name offline CPUs, whose topology is gone). A node
 * over two packages (BIOS node interleaving, or firmware that puts every
 * CPU in each node) is on no one socket, and neither is one whose CPUs'
 * packages are unknown: -1.
 */
static int node_package(const struct packages *pk, const char *cpus, const char *online)
{
	const char *p;
	long a, b, n, pkg = -1;
	int i;

	if (!online)
		return -1;
	for (p = cpus; *p;) {
		p = nicfit__topo_list_range(p, &a, &b);
		for (n = a; n <= b; n++) {
			if (!nicfit_cpulist_has(online, n))
				continue;
			for (i = 0; i < pk->n && !nicfit_cpulist_has(pk->cpus[i], n); i++)
				;
			if (i == pk->n)
				continue;
			if (pkg >= 0 && pk->id[i] != pkg)
				return -1;
			pkg = pk->id[i];
		}
	}
	return (int)pkg;
}

/* Node n: its CPUs, the package they are on, its distances. */
static int read_node(struct disc *d, long n, const struct packages *pk, const char *online)
{
	struct nicfit_topo *t = d->t;
	char dir[TOPO_PATH_MAX], path[TOPO_PATH_MAX], cpus[512];
	int idx, known;

	if (t->nnuma >= NICFIT_TOPO_MAX_NUMA)
		return nicfit__topo_fail(d, NICFIT_E_LIMIT, "more NUMA nodes than nicfit handles (64)");
	nicfit__fmt(dir, sizeof(dir), "sys/devices/system/node/node%ld", n);
	known = !read_cpuset(d, dir, "cpulist", "cpumap", cpus, sizeof(cpus), 0);
	idx = nicfit_topo_add_numa(t, (int)n, known ? cpus : NULL,
				   known ? node_package(pk, cpus, online) : -1);
	if (idx < 0)
		return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
	nicfit__topo_pathf(path, sizeof(path), dir, "distance");
	read_distance(d, path, &t->numa[idx]);
	return 0;
}

/*
 * The nodes without sys/devices/system/node/online (kernels before
 * 2.6.23 have no such list): the nodeN directories, in order, as hwloc
 * reads them. Returns 0 with *found set to how many there were.
 */
static int read_node_dirs(struct disc *d, const struct packages *pk, const char *online,
			  long *found)
{
	long *ids, i;

	*found = numbered_dirs(d, "sys/devices/system/node", "node", &ids);
	if (d->rc)
		return d->rc;
	for (i = 0; i < *found; i++)
		if (read_node(d, ids[i], pk, online))
			break;
	free(ids);
	return d->rc;
}

static int read_nodes(struct disc *d, const struct packages *pk, const char *online)
{
	struct nicfit_topo *t = d->t;
	enum nicfit_sysfs_status st;
	char list[512];
	unsigned long cnt;
	const char *p;
	long first, found;

	st = nicfit_sysfs_read_str(d->fs, "sys/devices/system/node/online", list, sizeof(list), 0);
	if (st == NICFIT_SYSFS_OK && nicfit_parse_cpulist(list, &cnt, &first)) {
		nicfit_sysfs_report(d->fs, "sys/devices/system/node/online", NICFIT_SYSFS_MALFORMED,
				    0, 0);
		st = NICFIT_SYSFS_MALFORMED;
	}
	if (st != NICFIT_SYSFS_OK) {
		if (read_node_dirs(d, pk, online, &found))
			return d->rc;
		if (found > 0) {
			t->numa_from_sysfs = 1;
			return 0;
		}
		/* No NUMA in this kernel (or an old capture): one node with every CPU. */
		if (nicfit_topo_add_numa(t, 0, online,
					 online ? node_package(pk, online, online) : -1) < 0)
			return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
		return 0;
	}
	t->numa_from_sysfs = 1;
	/* Walk the list's members in order (it parsed, so it is digits, '-' and ','). */
	for (p = list; *p;) {
		long a, b, n;

		p = nicfit__topo_list_range(p, &a, &b);
		for (n = a; n <= b; n++)
			if (read_node(d, n, pk, online))
				return d->rc;
	}
	return 0;
}

/*
 * The online CPUs and their packages first, then the nodes, each on the
 * package that holds its CPUs.
 */
int nicfit__topo_read_numa(struct disc *d)
{
	struct packages *pk;
	char online[512];
	int known;

	pk = calloc(1, sizeof(*pk));
	if (!pk)
		return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
	known = !read_online(d, online, sizeof(online));
	if (!d->rc && known)
		read_packages(d, online, pk);
	d->t->npackages = pk->n;
	if (!d->rc)
		read_nodes(d, pk, known ? online : NULL);
	free(pk);
	return d->rc;
}

/* ---- GPUDirect RDMA kernel support ---------------------------------------- */

void nicfit__topo_read_gdr(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents;
	size_t n;
	int i;

	t->nv_mem = nicfit_sysfs_exists(d->fs, "sys/kernel/mm/memory_peers/nv_mem/version");
	t->nv_mem_nc = nicfit_sysfs_exists(d->fs, "sys/kernel/mm/memory_peers/nv_mem_nc/version");
	t->nvidia_peermem = nicfit_sysfs_exists(d->fs, "sys/module/nvidia_peermem");
	t->nv_peer_mem = nicfit_sysfs_exists(d->fs, "sys/module/nv_peer_mem");
	t->modules_listed = nicfit_sysfs_exists(d->fs, "sys/module");
	t->nvidia_driver = nicfit_sysfs_exists(d->fs, "sys/module/nvidia");
	/* RCCL's three places for it, in its order (src/transport/net_ib.cc) */
	t->amdkfd_peer = nicfit_sysfs_exists(d->fs, "sys/kernel/mm/memory_peers/amdkfd/version") ||
			 nicfit_sysfs_exists(d->fs, "sys/kernel/memory_peers/amdkfd/version") ||
			 nicfit_sysfs_exists(d->fs, "sys/memory_peers/amdkfd/version");
	if (t->nvidia_driver)
		nicfit_sysfs_read_str(d->fs, "sys/module/nvidia/version", t->nvidia_version,
				      sizeof(t->nvidia_version), Q);
	/*
	 * A function bound to "nvidia" proves the driver is loaded, whatever
	 * sys/module says (a capture may lack it); without sys/module and such
	 * a function, whether it is loaded is unknown.
	 */
	for (i = 0; !t->nvidia_driver && i < t->npci; i++)
		if (t->pci[i].vendor == 0x10de && !strcmp(t->pci[i].driver, "nvidia"))
			t->nvidia_driver = 1;
	if (!t->nvidia_driver && !t->modules_listed)
		t->nvidia_driver = -1;
	if (nicfit_sysfs_list(d->fs, "sys/class/iommu", &ents, &n, Q) == NICFIT_SYSFS_OK) {
		t->iommu = n > 0;
		free(ents);
	} else {
		t->iommu = -1;
	}
}
