/*
 * topo_pcidev.c - what one PCI function's sysfs directory says about it:
 * class and IDs, driver, NUMA node, link speed and width, secondary bus
 * (bridges) and SR-IOV counts.
 *
 * Each value keeps a NICFIT_HAVE_* bit saying its file was there and well
 * formed, so "unknown" is never read as zero. Where it sits in the tree
 * is topo_pci.c's business; config space and VPD are topo_extras.c's.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/file_int.h"
#include "host/topo_int.h"

/*
 * Plausibility bounds on what the kernel prints; a value outside one is
 * not what the file holds. No kernel has 4096 NUMA nodes (NODES_SHIFT
 * is at most 10), so a larger numa_node counts as unknown; x32 is the
 * widest link PCIe defines; a bus number is 8 bits; TotalVFs is a 16-bit
 * register.
 */
#define NUMA_NODE_LIMIT 4096
#define PCIE_WIDTH_MAX 32
#define PCI_BUS_LIMIT 256
#define SRIOV_VFS_LIMIT 65536

/* ---- link speed and width ------------------------------------------------- */

/*
 * One speed file into text and gts, its have_bit set when it names a
 * speed. Returns 0 when the file was there and well formed ("Unknown"
 * included): what it said is the kernel's text for its register value.
 */
static int read_link(struct disc *d, const char *dir, const char *name, double *gts,
		     char *text, size_t cap, unsigned have_bit, struct nicfit_pcidev *p)
{
	char path[TOPO_PATH_MAX];
	enum nicfit_sysfs_status st;
	int r;

	nicfit__topo_pathf(path, sizeof(path), dir, name);
	st = nicfit_sysfs_read_str(d->fs, path, text, cap, 0);
	if (st == NICFIT_SYSFS_MISSING) {
		text[0] = '\0';
		return -1;
	}
	p->have |= NICFIT_HAVE_LINK_FILES;
	if (st != NICFIT_SYSFS_OK)
		return -1;
	r = nicfit_parse_link_speed(text, gts);
	if (r < 0) {
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		return -1;
	}
	if (r == 0)
		p->have |= have_bit;
	return 0;
}

static void read_width(struct disc *d, const char *dir, const char *name, int *w,
		       unsigned have_bit, struct nicfit_pcidev *p)
{
	char path[TOPO_PATH_MAX];
	long v;
	enum nicfit_sysfs_status st;

	nicfit__topo_pathf(path, sizeof(path), dir, name);
	st = nicfit_sysfs_read_long(d->fs, path, &v, 0);
	if (st == NICFIT_SYSFS_MISSING)
		return;
	p->have |= NICFIT_HAVE_LINK_FILES;
	if (st != NICFIT_SYSFS_OK)
		return;
	if (v < 0 || v > PCIE_WIDTH_MAX) {
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		return;
	}
	if (v > 0) { /* 0 = link down or not trained */
		*w = (int)v;
		p->have |= have_bit;
	}
}

/*
 * A speed file's text by the register value the kernel made it from: the
 * first function with key reads its own file (read_link) and, where that
 * was well formed, leaves the text for the others with the same key.
 * Returns -1 when its own file was read and missing or malformed.
 */
static int link_speed(struct disc *d, struct nicfit_pcidev *p, unsigned key, const char *name,
		       double *gts, char *text, size_t cap, unsigned have_bit)
{
	int i;

	for (i = 0; i < d->nlink_texts; i++)
		if (d->link_texts[i].key == key) {
			nicfit__topo_copy(text, cap, d->link_texts[i].text);
			*gts = d->link_texts[i].gts;
			p->have |= NICFIT_HAVE_LINK_FILES | (d->link_texts[i].known ? have_bit : 0);
			return 0;
		}
	if (read_link(d, p->path, name, gts, text, cap, have_bit, p))
		return -1;
	if (i < TOPO_LINK_TEXTS && strlen(text) < sizeof(d->link_texts[i].text)) {
		d->link_texts[i].key = key;
		memcpy(d->link_texts[i].text, text, strlen(text) + 1);
		d->link_texts[i].gts = *gts;
		d->link_texts[i].known = (p->have & have_bit) != 0;
		d->nlink_texts++;
	}
	return 0;
}

/* A width register field as its file would say it; out of range: the file itself. */
static void link_width(struct disc *d, struct nicfit_pcidev *p, int field, const char *name,
		       int *w, unsigned have_bit)
{
	if (field > PCIE_WIDTH_MAX) {
		read_width(d, p->path, name, w, have_bit, p);
	} else if (field > 0) {
		*w = field;
		p->have |= have_bit;
	}
}

/*
 * The four link files of the kernel (drivers/pci/pci-sysfs.c) are made
 * from the PCIe capability's registers, which config space gave where it
 * could be read beyond its header (root, or a capture made as root):
 *
 *   current_link_speed  pcie_link_speed[Link Status & PCI_EXP_LNKSTA_CLS],
 *                       named by pci_speed_string() (drivers/pci/probe.c);
 *                       older kernels named the same field by a switch
 *   current_link_width  (Link Status & PCI_EXP_LNKSTA_NLW) >> 4, "%u"
 *   max_link_speed      pcie_get_speed_cap(): Link Capabilities 2's
 *                       Supported Link Speeds Vector, else Link
 *                       Capabilities' Max Link Speed (drivers/pci/pci.c)
 *   max_link_width      (Link Capabilities & PCI_EXP_LNKCAP_MLW) >> 4, "%u"
 *
 * The widths are the fields. The speeds' words changed across kernels
 * ("8 GT/s", then "8.0 GT/s PCIe"), so they are not rebuilt from a table:
 * the first function with a register value reads its file and the others
 * take that text (link_speed). Where the tree has no link files (an old
 * kernel, a copy without them) or a malformed one, that read says so and
 * nothing is kept: each function with the value then reads its own, as
 * without config. Widths above x32 are read from the file, which reports
 * them as read_width does.
 */
static void link_from_config(struct disc *d, struct nicfit_pcidev *p)
{
	if (link_speed(d, p, TOPO_LINK_CUR | (unsigned)p->lnksta_gen, "current_link_speed",
		       &p->cur_gts, p->cur_speed_text, sizeof(p->cur_speed_text),
		       NICFIT_HAVE_CUR_SPEED)) {
		read_width(d, p->path, "current_link_width", &p->cur_width,
			   NICFIT_HAVE_CUR_WIDTH, p);
		read_link(d, p->path, "max_link_speed", &p->max_gts, p->max_speed_text,
			  sizeof(p->max_speed_text), NICFIT_HAVE_MAX_SPEED, p);
		read_width(d, p->path, "max_link_width", &p->max_width,
			   NICFIT_HAVE_MAX_WIDTH, p);
		return;
	}
	link_width(d, p, p->lnksta_width, "current_link_width", &p->cur_width,
		   NICFIT_HAVE_CUR_WIDTH);
	if (link_speed(d, p, TOPO_LINK_MAX | (unsigned)p->lnkcap_gen | p->lnkcap2_speeds << 4,
		       "max_link_speed", &p->max_gts, p->max_speed_text,
		       sizeof(p->max_speed_text), NICFIT_HAVE_MAX_SPEED))
		read_width(d, p->path, "max_link_width", &p->max_width, NICFIT_HAVE_MAX_WIDTH, p);
	else
		link_width(d, p, p->lnkcap_width, "max_link_width", &p->max_width,
			   NICFIT_HAVE_MAX_WIDTH);
}

/* A VF's traffic crosses its PF's link: that is the link it has. */
static void link_of_pf(struct nicfit_pcidev *p, const struct nicfit_pcidev *pf)
{
	p->cur_gts = pf->cur_gts;
	p->max_gts = pf->max_gts;
	p->cur_width = pf->cur_width;
	p->max_width = pf->max_width;
	memcpy(p->cur_speed_text, pf->cur_speed_text, sizeof(p->cur_speed_text));
	memcpy(p->max_speed_text, pf->max_speed_text, sizeof(p->max_speed_text));
	p->have |= pf->have & (NICFIT_HAVE_LINK_FILES | NICFIT_HAVE_CUR_SPEED |
			       NICFIT_HAVE_MAX_SPEED | NICFIT_HAVE_CUR_WIDTH | NICFIT_HAVE_MAX_WIDTH);
}

void nicfit__topo_read_links(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	int whole = nicfit_sysfs_recording_whole(d->fs);
	size_t v = 0;
	int i;

	for (i = 0; i < t->npci; i++) {
		struct nicfit_pcidev *p = &t->pci[i];

		if (v < d->nvf_links && d->vf_links[v] == i) {
			v++;
			link_of_pf(p, &t->pci[p->physfn]);
		} else if (p->cfg_pcie && !whole) {
			link_from_config(d, p);
		} else {
			/* a snapshot keeps every function's files, as the kernel wrote them */
			read_link(d, p->path, "current_link_speed", &p->cur_gts, p->cur_speed_text,
				  sizeof(p->cur_speed_text), NICFIT_HAVE_CUR_SPEED, p);
			read_width(d, p->path, "current_link_width", &p->cur_width,
				   NICFIT_HAVE_CUR_WIDTH, p);
			read_link(d, p->path, "max_link_speed", &p->max_gts, p->max_speed_text,
				  sizeof(p->max_speed_text), NICFIT_HAVE_MAX_SPEED, p);
			read_width(d, p->path, "max_link_width", &p->max_width,
				   NICFIT_HAVE_MAX_WIDTH, p);
		}
	}
}

/* ---- class, IDs, driver ----------------------------------------------------- */

/*
 * The uevent keys discovery reads, found in one pass over the file: for
 * each, where the value of its first "KEY=value" line starts and how
 * long it is (at[k] NULL when no line has the key).
 */
enum { UE_CLASS, UE_ID, UE_SUBSYS, UE_DRIVER, UE_KEYS };

/* A longer DRIVER= value names no driver: it is not taken, not cut. */
#define UEVENT_VALUE_MAX 64

static const struct {
	const char *key;
	size_t len;
} ue_keys[UE_KEYS] = {
	{ "PCI_CLASS", 9 }, { "PCI_ID", 6 }, { "PCI_SUBSYS_ID", 13 }, { "DRIVER", 6 },
};

struct uevent {
	const char *at[UE_KEYS];
	size_t len[UE_KEYS];
};

static void uevent_scan(const char *text, size_t n, struct uevent *u)
{
	const char *p = text, *end = text + n;
	int k;

	for (k = 0; k < UE_KEYS; k++)
		u->at[k] = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		for (k = 0; k < UE_KEYS; k++) {
			size_t kl = ue_keys[k].len;

			if (!u->at[k] && ll > kl && p[kl] == '=' && !memcmp(p, ue_keys[k].key, kl)) {
				u->at[k] = p + kl + 1;
				u->len[k] = ll - kl - 1;
			}
		}
		p += ll + (nl != NULL);
	}
}

/*
 * The n hex digits at s (uevent writes no "0x"), as nicfit_parse_hex_id()
 * reads them after "0x"; -1 when one is not a hex digit. n is at most 8.
 */
static int hex_digits(const char *s, size_t n, unsigned long *out)
{
	unsigned long v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i], l = (unsigned char)(c | 0x20);

		if (c >= '0' && c <= '9')
			v = v << 4 | (unsigned long)(c - '0');
		else if (l >= 'a' && l <= 'f')
			v = v << 4 | (unsigned long)(l - 'a' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Key k as "vvvv:dddd" (PCI_ID, PCI_SUBSYS_ID): its two halves; -1 when absent or not that. */
static int uevent_pair(const struct uevent *u, int k, unsigned long *a, unsigned long *b)
{
	const char *v = u->at[k];

	if (!v || u->len[k] != 9 || v[4] != ':')
		return -1;
	return hex_digits(v, 4, a) || hex_digits(v + 5, 4, b) ? -1 : 0;
}

/*
 * The kernel's uevent file carries class, IDs, subsystem IDs and the
 * driver in one read (docs/reference/topology.md 3.1). Returns 0 when it held
 * class and IDs. The kernel writes a DRIVER= line whenever a driver is
 * bound, so a uevent file, even one without that line, shows the tree can
 * tell drivers (topo->drivers_listed).
 */
static int read_uevent(struct disc *d, struct nicfit_pcidev *p, const char *dir)
{
	char path[TOPO_PATH_MAX], buf[NICFIT_SYSFS_TEXT_MAX];
	enum nicfit_sysfs_status st;
	unsigned long c, a, b;
	struct uevent u;
	size_t len;

	nicfit__topo_pathf(path, sizeof(path), dir, "uevent");
	st = nicfit_sysfs_read(d->fs, path, buf, sizeof(buf) - 1, &len, 0);
	if (st != NICFIT_SYSFS_MISSING)
		d->t->drivers_listed = 1;
	if (st != NICFIT_SYSFS_OK)
		return -1;
	buf[len] = '\0';
	if (strlen(buf) == len)
		uevent_scan(buf, len, &u);
	/* class: 1 to 6 hex digits; IDs: "vvvv:dddd" */
	if (strlen(buf) != len || !u.at[UE_CLASS] || !u.len[UE_CLASS] || u.len[UE_CLASS] > 6 ||
	    hex_digits(u.at[UE_CLASS], u.len[UE_CLASS], &c) || uevent_pair(&u, UE_ID, &a, &b)) {
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		return -1;
	}
	p->class_code = (unsigned)c;
	p->vendor = (unsigned)a;
	p->device = (unsigned)b;
	p->have |= NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS;
	if (!uevent_pair(&u, UE_SUBSYS, &a, &b)) {
		p->subvendor = (unsigned)a;
		p->subdevice = (unsigned)b;
		p->have |= NICFIT_HAVE_SUBSYS;
	}
	if (u.at[UE_DRIVER] && u.len[UE_DRIVER] < UEVENT_VALUE_MAX) {
		size_t n = u.len[UE_DRIVER] < sizeof(p->driver) ? u.len[UE_DRIVER]
								 : sizeof(p->driver) - 1;

		memcpy(p->driver, u.at[UE_DRIVER], n);
		p->driver[n] = '\0';
	}
	return 0;
}

/* ---- NUMA locality from the CPU list ----------------------------------------- */

/* 1 when every CPU of list (valid) is in node's CPU list. */
static int cpus_within(const char *list, const struct nicfit_numa *node)
{
	const char *p;
	long a, b, n;

	if (!node->cpulist[0])
		return 0;
	for (p = list; *p;) {
		p = nicfit__topo_list_range(p, &a, &b);
		for (n = a; n <= b; n++)
			if (!nicfit_cpulist_has(node->cpulist, n))
				return 0;
	}
	return 1;
}

/*
 * The CPUs the kernel lists as local to the function, into cpus (cap
 * bytes): local_cpulist, or where the tree has only the mask, local_cpus
 * (kernels before the lists; captures that keep what hwloc reads). A mask
 * that is no mask is a read problem; one whose list does not fit, like a
 * list too long, says nothing. Returns 0 with a list of at least one CPU.
 */
static int local_cpus(struct disc *d, const char *dir, char *cpus, size_t cap)
{
	char path[TOPO_PATH_MAX], mask[NICFIT_SYSFS_TEXT_MAX];
	enum nicfit_sysfs_status st;
	unsigned long cnt;
	long first;
	int r;

	nicfit__topo_pathf(path, sizeof(path), dir, "local_cpulist");
	st = nicfit_sysfs_read_str(d->fs, path, cpus, cap, NICFIT_SYSFS_QUIET);
	if (st == NICFIT_SYSFS_OK)
		return nicfit_parse_cpulist(cpus, &cnt, &first) || !cnt ? -1 : 0;
	if (st != NICFIT_SYSFS_MISSING)
		return -1;
	nicfit__topo_pathf(path, sizeof(path), dir, "local_cpus");
	if (nicfit_sysfs_read_str(d->fs, path, mask, sizeof(mask), 0) != NICFIT_SYSFS_OK)
		return -1;
	r = nicfit_parse_cpumask(mask, cpus, cap);
	if (r == -1)
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
	return r || !cpus[0] ? -1 : 0;
}

/*
 * Without a usable numa_node (absent on old kernels, or -1), the CPUs the
 * kernel lists as local to the function still place it, as hwloc places
 * PCI devices by local_cpus (docs/reference/topology.md 4): the one node
 * whose CPUs hold them all. A list spanning nodes (firmware without
 * locality lists every CPU) places nothing.
 */
static void numa_from_local_cpus(struct disc *d, struct nicfit_pcidev *p, const char *dir)
{
	const struct nicfit_topo *t = d->t;
	char cpus[512];
	int i, node = -1;

	if (t->nnuma < 2 || local_cpus(d, dir, cpus, sizeof(cpus)))
		return;
	for (i = 0; i < t->nnuma; i++)
		if (cpus_within(cpus, &t->numa[i])) {
			if (node >= 0)
				return;
			node = t->numa[i].id;
		}
	p->numa_node = node;
}

/*
 * Whether the tree can show drivers: a function's uevent file or driver
 * link has said so already (read_uevent, nicfit__topo_read_function); else
 * the kernel's directory of PCI drivers, which a live host always has. A
 * copy of the functions' attribute files alone has none of them: every
 * driver is then unknown, not absent.
 */
void nicfit__topo_read_drivers(struct disc *d)
{
	if (!d->t->drivers_listed)
		d->t->drivers_listed = nicfit_sysfs_exists(d->fs, "sys/bus/pci/drivers");
}

/* ---- links ------------------------------------------------------------------ */

/*
 * Whether s (n bytes, the end of a string) is names with no "", "." or
 * ".." among them: nothing that nicfit__path_join would drop or fold. A
 * name that starts with a dot is taken for one of those (the kernel's
 * device and driver names have none): a longer way, the same result.
 */
static int plain_components(const char *s, size_t n)
{
	const char *end = s + n, *q;

	if (!n || s[0] == '/' || s[0] == '.')
		return 0;
	for (; (q = memchr(s, '/', (size_t)(end - s))) != NULL; s = q + 1)
		if (q + 1 == end || q[1] == '/' || q[1] == '.')
			return 0;
	return 1;
}

int nicfit__topo_link_join(char *out, size_t cap, const char *dir, const char *link)
{
	size_t dl = strlen(dir), ll = strlen(link), up = 0, rl;

	/* the kernel's form: "../" a few times, then the names down */
	while (ll - up >= 3 && link[up] == '.' && link[up + 1] == '.' && link[up + 2] == '/')
		up += 3;
	rl = ll - up;
	if (!up || dl >= cap || !plain_components(link + up, rl))
		return nicfit__path_join(out, cap, dir, link);
	for (; up; up -= 3) {
		while (dl && dir[dl - 1] != '/')
			dl--;
		if (!dl)
			return nicfit__path_join(out, cap, dir, link);
		dl--;
	}
	if (dl + 1 + rl + 1 > cap)
		return nicfit__path_join(out, cap, dir, link);
	memcpy(out, dir, dl);
	out[dl] = '/';
	memcpy(out + dl + 1, link + ll - rl, rl + 1);
	return 0;
}

/* ---- SR-IOV virtual functions ------------------------------------------------- */

/* Keep PF idx, whose VFs are enabled, for maybe_vf (out of memory: VFs cost more). */
static void note_pf(struct disc *d, int idx)
{
	if (NICFIT_ALLOC_GROW(d->vf_pfs, d->nvf_pfs + 1, d->alloc_vf_pfs))
		return;
	d->vf_pfs[d->nvf_pfs++] = idx;
	if (d->vf_from < 0)
		d->vf_from = idx + 1;
}

/*
 * Whether p may be a VF of a PF already read: a network, display or
 * processing function (the classes nicfit__topo_read_physfns asks) that is
 * a sibling of such a PF, as the kernel places VFs (drivers/pci/iov.c).
 */
static int maybe_vf(const struct disc *d, const struct nicfit_pcidev *p)
{
	unsigned base = p->class_code >> 16;
	size_t i;

	if (!d->nvf_pfs || !(base == 0x02 || base == 0x03 || base == 0x12))
		return 0;
	for (i = 0; i < d->nvf_pfs; i++) {
		const struct nicfit_pcidev *pf = &d->t->pci[d->vf_pfs[i]];

		if (pf->parent == p->parent && pf->hostbridge == p->hostbridge)
			return 1;
	}
	return 0;
}

/*
 * A VF is known by its physfn link. Its traffic crosses its PF's link,
 * whose speed and width it takes; it has no SR-IOV capability of its own,
 * and the kernel gives it its PF's NUMA node (pci_iov_add_virtfn() adds
 * it on the PF's bus or a child of it): none of those files is read.
 * Returns 1 when p is a VF of a known function.
 */
static int read_vf(struct disc *d, int idx, const char *dir)
{
	struct nicfit_pcidev *p = &d->t->pci[idx];
	char path[TOPO_PATH_MAX], link[TOPO_PATH_MAX], canon[TOPO_PATH_MAX];
	const struct nicfit_pcidev *pf;
	size_t i;
	int k;

	nicfit__topo_pathf(path, sizeof(path), dir, "physfn");
	if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) != NICFIT_SYSFS_OK ||
	    nicfit__topo_link_join(canon, sizeof(canon), dir, link))
		return 0;
	/* one of the PFs met (a physfn elsewhere is left to nicfit__topo_read_physfns) */
	for (i = 0; i < d->nvf_pfs && strcmp(d->t->pci[d->vf_pfs[i]].path, canon); i++)
		;
	if (i == d->nvf_pfs) {
		p->physfn = -2; /* a VF of another function: resolved once all are known */
		return 0;
	}
	k = d->vf_pfs[i];
	p->physfn = k;
	pf = &d->t->pci[k];
	p->numa_node = pf->numa_node;
	p->have |= pf->have & NICFIT_HAVE_NUMA;
	p->absent |= pf->absent & NICFIT_HAVE_NUMA;
	/* its link is its PF's, taken once the PF's is known (nicfit__topo_read_links) */
	if (!NICFIT_ALLOC_GROW(d->vf_links, d->nvf_links + 1, d->alloc_vf_links))
		d->vf_links[d->nvf_links++] = idx;
	return 1;
}

/* ---- one function ----------------------------------------------------------- */

void nicfit__topo_read_secbus(struct disc *d, int idx)
{
	struct nicfit_pcidev *p = &d->t->pci[idx];
	char path[TOPO_PATH_MAX];
	long n;

	if ((p->class_code >> 8) != 0x0604 && (p->class_code >> 8) != 0x0609)
		return;
	nicfit__topo_pathf(path, sizeof(path), p->path, "secondary_bus_number");
	if (nicfit_sysfs_read_long(d->fs, path, &n, 0) == NICFIT_SYSFS_OK && n >= 0 &&
	    n < PCI_BUS_LIMIT) {
		p->secondary_bus = (int)n;
		p->have |= NICFIT_HAVE_SECBUS;
	}
}

void nicfit__topo_read_function(struct disc *d, int idx)
{
	struct nicfit_pcidev *p = &d->t->pci[idx];
	char dir[TOPO_PATH_MAX], path[TOPO_PATH_MAX], link[TOPO_PATH_MAX];
	enum nicfit_sysfs_status st;
	unsigned long v1, v2;
	long n;

	nicfit__topo_copy(dir, sizeof(dir), p->path);
	if (!read_uevent(d, p, dir))
		goto ids_done;
	nicfit__topo_pathf(path, sizeof(path), dir, "class");
	st = nicfit_sysfs_read_hex(d->fs, path, &v1, 0);
	if (st == NICFIT_SYSFS_OK && v1 <= 0xffffff) {
		p->class_code = (unsigned)v1;
		p->have |= NICFIT_HAVE_CLASS;
	} else if (st == NICFIT_SYSFS_MISSING) {
		p->absent |= NICFIT_HAVE_CLASS;
	}
	nicfit__topo_pathf(path, sizeof(path), dir, "vendor");
	st = nicfit_sysfs_read_hex(d->fs, path, &v1, 0);
	if (st == NICFIT_SYSFS_OK) {
		nicfit__topo_pathf(path, sizeof(path), dir, "device");
		st = nicfit_sysfs_read_hex(d->fs, path, &v2, 0);
		if (st == NICFIT_SYSFS_OK && v1 <= 0xffff && v2 <= 0xffff) {
			p->vendor = (unsigned)v1;
			p->device = (unsigned)v2;
			p->have |= NICFIT_HAVE_IDS;
		}
	}
	if (st == NICFIT_SYSFS_MISSING)
		p->absent |= NICFIT_HAVE_IDS;
	nicfit__topo_pathf(path, sizeof(path), dir, "subsystem_vendor");
	if (nicfit_sysfs_read_hex(d->fs, path, &v1, 0) == NICFIT_SYSFS_OK) {
		nicfit__topo_pathf(path, sizeof(path), dir, "subsystem_device");
		if (nicfit_sysfs_read_hex(d->fs, path, &v2, 0) == NICFIT_SYSFS_OK &&
		    v1 <= 0xffff && v2 <= 0xffff) {
			p->subvendor = (unsigned)v1;
			p->subdevice = (unsigned)v2;
			p->have |= NICFIT_HAVE_SUBSYS;
		}
	}
	nicfit__topo_pathf(path, sizeof(path), dir, "driver");
	if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) == NICFIT_SYSFS_OK) {
		const char *b = strrchr(link, '/');

		nicfit__topo_copy(p->driver, sizeof(p->driver), b ? b + 1 : link);
		d->t->drivers_listed = 1;
	}
ids_done:
	if (maybe_vf(d, p) && read_vf(d, idx, dir))
		return;
	nicfit__topo_pathf(path, sizeof(path), dir, "numa_node");
	st = nicfit_sysfs_read_long(d->fs, path, &n, 0);
	if (st == NICFIT_SYSFS_OK) {
		p->have |= NICFIT_HAVE_NUMA;
		p->numa_node = n >= 0 && n < NUMA_NODE_LIMIT ? (int)n : -1;
	} else if (st == NICFIT_SYSFS_MISSING) {
		p->absent |= NICFIT_HAVE_NUMA;
	}
	if (p->numa_node < 0)
		numa_from_local_cpus(d, p, dir);
	if ((p->class_code >> 8) == 0x0604 || (p->class_code >> 8) == 0x0609) {
		/* a snapshot keeps it; else slots ask for it (nicfit__topo_read_secbus) */
		if (nicfit_sysfs_recording_whole(d->fs))
			nicfit__topo_read_secbus(d, idx);
		return;
	}
	/* SR-IOV: network, display and accelerator functions. */
	switch (p->class_code >> 16) {
	case 0x02: case 0x03: case 0x12: case 0x0b: case 0x0c:
		break;
	default:
		return;
	}
	nicfit__topo_pathf(path, sizeof(path), dir, "sriov_totalvfs");
	if (nicfit_sysfs_read_long(d->fs, path, &n, 0) == NICFIT_SYSFS_OK && n >= 0 &&
	    n < SRIOV_VFS_LIMIT) {
		p->sriov_totalvfs = (int)n;
		nicfit__topo_pathf(path, sizeof(path), dir, "sriov_numvfs");
		if (nicfit_sysfs_read_long(d->fs, path, &n, 0) == NICFIT_SYSFS_OK && n >= 0 &&
		    n < SRIOV_VFS_LIMIT)
			p->sriov_numvfs = (int)n;
		if (p->sriov_numvfs > 0)
			note_pf(d, idx);
	}
}
