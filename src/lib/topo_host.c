/*
 * topo_host.c - discovery of the host itself: its name and kernel, the
 * evidence that it is a virtual machine, its NUMA nodes and the packages
 * they sit on, and the kernel pieces GPUDirect RDMA needs.
 *
 * These are the facts that are not about one PCI function; the PCI tree
 * is topo_pci.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fmt_int.h"
#include "topo_int.h"

#define Q NICFIT_SYSFS_QUIET

/* proc/cpuinfo is read up to this much: the first CPU's flags line is in it. */
#define CPUINFO_READ_MAX 16384
/*
 * physical_package_id is a socket number; anything above 16 bits is not
 * one (some firmware reports -1 or garbage), so it counts as unknown.
 */
#define PACKAGE_ID_MAX 65535
/* A SLIT distance is at most 255 (ACPI), so more than 6 digits is junk. */
#define DISTANCE_DIGITS_MAX 6
/* More distinct packages than this is not a server's topology files. */
#define PACKAGES_MAX 256

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

void nicfit__topo_read_host(struct disc *d)
{
	struct nicfit_topo *t = d->t;

	nicfit_sysfs_read_str(d->fs, "proc/sys/kernel/hostname", t->hostname,
			      sizeof(t->hostname), Q);
	nicfit_sysfs_read_str(d->fs, "proc/sys/kernel/osrelease", t->kernel, sizeof(t->kernel), Q);
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
	nicfit_sysfs_read_str(d->fs, "sys/class/dmi/id/sys_vendor", t->sys_vendor,
			      sizeof(t->sys_vendor), Q);
	nicfit_sysfs_read_str(d->fs, "sys/class/dmi/id/product_name", t->product,
			      sizeof(t->product), Q);
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

/* Node n: its CPUs, the package of its first CPU, its distances. */
static int read_node(struct disc *d, long n)
{
	struct nicfit_topo *t = d->t;
	char path[TOPO_PATH_MAX], cpus[512];
	long pkg = -1, cnt_first = -1;
	unsigned long cnt = 0;
	int idx;

	if (t->nnuma >= NICFIT_TOPO_MAX_NUMA)
		return nicfit__topo_fail(d, NICFIT_E_LIMIT, "more NUMA nodes than nicfit handles (64)");
	nicfit__fmt(path, sizeof(path), "sys/devices/system/node/node%ld/cpulist", n);
	if (nicfit_sysfs_read_str(d->fs, path, cpus, sizeof(cpus), 0) != NICFIT_SYSFS_OK)
		cpus[0] = '\0';
	if (cpus[0] && nicfit_parse_cpulist(cpus, &cnt, &cnt_first)) {
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		cpus[0] = '\0';
		cnt_first = -1;
	}
	if (cnt_first >= 0) {
		nicfit__fmt(path, sizeof(path),
			 "sys/devices/system/cpu/cpu%ld/topology/physical_package_id", cnt_first);
		if (nicfit_sysfs_read_long(d->fs, path, &pkg, Q) != NICFIT_SYSFS_OK || pkg < 0 ||
		    pkg > PACKAGE_ID_MAX)
			pkg = -1;
	}
	idx = nicfit_topo_add_numa(t, (int)n, cpus, (int)pkg);
	if (idx < 0)
		return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
	nicfit__fmt(path, sizeof(path), "sys/devices/system/node/node%ld/distance", n);
	read_distance(d, path, &t->numa[idx]);
	return 0;
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

struct packages {
	long id[PACKAGES_MAX];
	char siblings[PACKAGES_MAX][512]; /* core_siblings_list: the package's CPUs */
	int n;
};

/*
 * The package of online CPU cpu, unless a package already seen holds it
 * (its core_siblings_list, the CPUs of one package, names it): that way
 * a host reads two files per socket, not one per CPU.
 */
static void read_cpu_package(struct disc *d, long cpu, struct packages *pk)
{
	char path[TOPO_PATH_MAX], sib[512];
	unsigned long cnt;
	long id, first;
	int i;

	for (i = 0; i < pk->n; i++)
		if (pk->siblings[i][0] && nicfit_cpulist_has(pk->siblings[i], cpu))
			return;
	nicfit__fmt(path, sizeof(path),
		 "sys/devices/system/cpu/cpu%ld/topology/physical_package_id", cpu);
	if (nicfit_sysfs_read_long(d->fs, path, &id, Q) != NICFIT_SYSFS_OK || id < 0 ||
	    id > PACKAGE_ID_MAX)
		return;
	nicfit__fmt(path, sizeof(path), "sys/devices/system/cpu/cpu%ld/topology/core_siblings_list",
		 cpu);
	if (nicfit_sysfs_read_str(d->fs, path, sib, sizeof(sib), Q) != NICFIT_SYSFS_OK ||
	    nicfit_parse_cpulist(sib, &cnt, &first) || !nicfit_cpulist_has(sib, cpu))
		sib[0] = '\0';
	for (i = 0; i < pk->n; i++)
		if (pk->id[i] == id)
			break;
	if (i == pk->n) {
		if (pk->n == PACKAGES_MAX)
			return;
		pk->id[pk->n++] = id;
	}
	if (!pk->siblings[i][0])
		nicfit__topo_copy(pk->siblings[i], sizeof(pk->siblings[i]), sib);
}

/*
 * Sockets are CPU packages, not NUMA nodes: sub-NUMA clustering puts two
 * nodes on one package, and some firmware one node over two packages. So
 * count the distinct physical_package_id of the online CPUs (as hwloc
 * does, docs/reference/topology.md); 0 (unknown) when none is readable.
 */
static int read_packages(struct disc *d)
{
	struct packages *pk;
	char online[512];
	unsigned long cnt;
	const char *p;
	long first, a, b, n;

	if (nicfit_sysfs_read_str(d->fs, "sys/devices/system/cpu/online", online, sizeof(online),
				  Q) != NICFIT_SYSFS_OK ||
	    nicfit_parse_cpulist(online, &cnt, &first))
		return 0;
	pk = calloc(1, sizeof(*pk));
	if (!pk)
		return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
	for (p = online; *p;) {
		p = nicfit__topo_list_range(p, &a, &b);
		for (n = a; n <= b; n++)
			read_cpu_package(d, n, pk);
	}
	d->t->npackages = pk->n;
	free(pk);
	return 0;
}

int nicfit__topo_read_numa(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	char online[512], cpus[512];
	unsigned long cnt;
	const char *p;
	long first;

	if (nicfit_sysfs_read_str(d->fs, "sys/devices/system/node/online", online,
				  sizeof(online), 0) != NICFIT_SYSFS_OK) {
		/* No NUMA in this kernel (or an old capture): one node with every CPU. */
		if (nicfit_sysfs_read_str(d->fs, "sys/devices/system/cpu/online", cpus,
					  sizeof(cpus), Q) != NICFIT_SYSFS_OK)
			cpus[0] = '\0';
		if (nicfit_topo_add_numa(t, 0, cpus, -1) < 0)
			return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
		return read_packages(d);
	}
	t->numa_from_sysfs = 1;
	if (nicfit_parse_cpulist(online, &cnt, &first)) {
		nicfit_sysfs_report(d->fs, "sys/devices/system/node/online", NICFIT_SYSFS_MALFORMED,
				    0, 0);
		return read_packages(d);
	}
	/* Walk the list's members in order (it parsed, so it is digits, '-' and ','). */
	for (p = online; *p;) {
		long a, b, n;

		p = nicfit__topo_list_range(p, &a, &b);
		for (n = a; n <= b; n++)
			if (read_node(d, n))
				return d->rc;
	}
	return read_packages(d);
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
