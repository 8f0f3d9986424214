/*
 * topo_pci.c - the PCI tree: which functions the host has, under which
 * host bridges and bridges, and which slots hold them.
 *
 * The tree is built from canonical device paths, not from the bus
 * listing's order: each entry of sys/bus/pci/devices is a link to
 * sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0, and every function on
 * that path (bridges absent from the listing too) is added, parents
 * before children, so a parent's index is always below its child's. A
 * nested domain root (pci10000:00, a VMD) on the path starts a new host
 * bridge hosted by the function above it. The directories under
 * sys/devices/pci* are walked after the listing too (instead of it when
 * there is none): captures and some kernels miss an endpoint in the
 * listing, and a function that is in the tree is on the host (once: another
 * directory of a BDF already found is a copy, and is skipped). A hash of the
 * canonical paths finds a function again (for VFs, class devices and
 * every later component). What each function's files say is
 * topo_pcidev.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/file_int.h"
#include "core/fmt_int.h"
#include "host/sysfs_int.h"
#include "host/topo_int.h"

#define Q NICFIT_SYSFS_QUIET

/* The path index starts with this many slots and doubles at half full. */
#define PATH_HASH_MIN 512

/* ---- the path index ----------------------------------------------------------- */

/* find_path with h = nicfit__sysfs_path_hash(path, n) already known */
static int find_hashed(struct disc *d, const char *path, size_t n, size_t h)
{
	size_t k;

	if (!d->hashcap)
		return -1;
	k = h & (d->hashcap - 1);
	while (d->hash[k]) {
		const char *p = d->t->pci[d->hash[k] - 1].path;

		if (!strncmp(p, path, n) && !p[n])
			return d->hash[k] - 1;
		k = (k + 1) & (d->hashcap - 1);
	}
	return -1;
}

int nicfit__topo_find_path(struct disc *d, const char *path, size_t n)
{
	return find_hashed(d, path, n, nicfit__sysfs_path_hash(path, n));
}

/* The function whose path is the longest prefix of path ending before a '/'. */
int nicfit__topo_find_prefix(struct disc *d, const char *path)
{
	size_t m = strlen(path);

	while (m-- > 1) {
		int idx;

		if (path[m] != '/')
			continue;
		idx = nicfit__topo_find_path(d, path, m);
		if (idx >= 0)
			return idx;
	}
	return -1;
}

static int hash_put(struct disc *d, int idx, size_t ph)
{
	size_t k, i;

	if ((size_t)(d->t->npci + 1) * 2 > d->hashcap) {
		size_t cap = d->hashcap ? d->hashcap * 2 : PATH_HASH_MIN;
		int *h = calloc(cap, sizeof(*h));

		if (!h)
			return -1;
		free(d->hash);
		d->hash = h;
		d->hashcap = cap;
		for (i = 0; i < (size_t)d->t->npci; i++) {
			const char *p = d->t->pci[i].path;

			if ((int)i == idx || !p)
				continue;
			k = nicfit__sysfs_path_hash(p, strlen(p)) & (cap - 1);
			while (h[k])
				k = (k + 1) & (cap - 1);
			h[k] = (int)i + 1;
		}
	}
	k = ph & (d->hashcap - 1);
	while (d->hash[k])
		k = (k + 1) & (d->hashcap - 1);
	d->hash[k] = idx + 1;
	return 0;
}

/* ---- names on a device path ----------------------------------------------- */

static int hexd(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_bdf(const char *s, size_t n)
{
	char tmp[24];
	unsigned a, b, c, e;

	/* not one: most components on a path ("sys", "devices", "pci0000:00", "net") */
	if (n < 12 || s[n - 2] != '.' || s[n - 5] != ':' || s[n - 8] != ':')
		return 0;
	/* the form every kernel writes, 0000:00:1f.7: told without the parser */
	if (n == 12 && hexd(s[0]) && hexd(s[1]) && hexd(s[2]) && hexd(s[3]) && hexd(s[5]) &&
	    hexd(s[6]) && (s[8] == '0' || s[8] == '1') && hexd(s[9]) && s[11] >= '0' &&
	    s[11] <= '7')
		return 1;
	if (n >= sizeof(tmp))
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return !nicfit_parse_pci_addr(tmp, &a, &b, &c, &e);
}

/* hex digits, one ':' between them: the form every kernel writes */
static int plain_root(const char *s, size_t n)
{
	size_t i, colon = 0;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == ':') {
			if (colon || !i || i + 1 == n)
				return 0;
			colon = i;
		} else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			     (c >= 'A' && c <= 'F'))) {
			return 0;
		}
	}
	return colon != 0;
}

/*
 * "pci" and "%x:%x" (sscanf's reading: a sign or 0x may come too); the
 * plain form, all that kernels write, is told without sscanf.
 */
static int is_pci_root(const char *s, size_t n)
{
	char tmp[24];
	unsigned a, b;
	int used = 0;

	if (n < 8 || n >= sizeof(tmp) || strncmp(s, "pci", 3))
		return 0;
	if (plain_root(s + 3, n - 3))
		return 1;
	memcpy(tmp, s + 3, n - 3);
	tmp[n - 3] = '\0';
	return sscanf(tmp, "%x:%x%n", &a, &b, &used) == 2 && used == (int)(n - 3);
}

/* ---- the tree --------------------------------------------------------------- */

/* The first n bytes of s into out, cut to cap - 1 as snprintf's "%.*s" would be. */
static void copy_n(char *out, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/*
 * Where add_chain can start on path (len bytes): after the longest prefix
 * that is a function already known, *last its index (-1 and 0 when none
 * is). A function's path is a chain add_chain walked whole, every function
 * on it known since, so walking that prefix again would only find them
 * one by one and end where this starts: a VF below a known bridge costs a
 * look-up or two, not a walk of its path. Only a prefix whose last
 * component has a BDF's shape (is_bdf's first test) is looked up.
 */
static size_t known_start(struct disc *d, const char *path, size_t len, int *last)
{
	size_t e = len;

	*last = -1;
	for (;;) {
		if (e >= 12 && path[e - 2] == '.' && path[e - 5] == ':' && path[e - 8] == ':') {
			int idx = nicfit__topo_find_path(d, path, e);

			if (idx >= 0) {
				if (d->t->pci[idx].hostbridge < 0)
					return 0;
				*last = idx;
				return e < len ? e + 1 : e;
			}
		}
		while (e && path[e - 1] != '/')
			e--;
		if (e < 2)
			return 0;
		e--; /* the '/' before the component: the prefix ends there */
	}
}

/*
 * Get or create the functions on a canonical device path
 * ("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"). Returns the index
 * of the last function, or -1 when the path holds none.
 */
static int add_chain(struct disc *d, const char *path)
{
	struct nicfit_topo *t = d->t;
	size_t len = strlen(path), i;
	int parent = -1, hb = -1, last;
	size_t pend_s = 0, pend_n = 0; /* pending host bridge component */

	i = known_start(d, path, len, &last);
	if (last >= 0) {
		parent = last;
		hb = t->pci[last].hostbridge;
	}
	while (i < len) {
		const char *c = path + i;
		const char *slash = memchr(c, '/', len - i);
		size_t n = slash ? (size_t)(slash - c) : len - i;

		if (is_bdf(c, n)) {
			size_t h = nicfit__sysfs_path_hash(path, i + n);
			int idx = find_hashed(d, path, i + n, h);

			if (idx < 0) {
				char bdf[24];

				if (hb < 0) {
					char name[32];

					copy_n(name, sizeof(name), path + pend_s, pend_n);
					hb = nicfit_topo_add_hostbridge(t, pend_n ? name : "pci?", -1);
					if (hb < 0)
						return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory"), -1;
					t->hb[hb].path = strndup(path, pend_n ? pend_s + pend_n : i);
					t->hb[hb].parent_pci = parent >= 0 ? parent : -1;
					if (parent >= 0)
						parent = -1;
				}
				copy_n(bdf, sizeof(bdf), c, n);
				if (t->npci >= NICFIT_TOPO_MAX_PCI)
					return nicfit__topo_fail(d, NICFIT_E_LIMIT,
						    "more PCI functions than nicfit handles (8192)"), -1;
				idx = nicfit_topo_add_pci(t, bdf, parent, hb);
				if (idx < 0)
					return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory"), -1;
				t->pci[idx].path = strndup(path, i + n);
				if (!t->pci[idx].path || hash_put(d, idx, h))
					return nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory"), -1;
				if (t->pci[idx].depth >= NICFIT_TOPO_MAX_DEPTH)
					return nicfit__topo_fail(d, NICFIT_E_LIMIT, "PCI tree deeper than 32 levels"), -1;
				nicfit__topo_read_function(d, idx);
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

/*
 * Whether functions can sit below function p in the device tree: a bridge
 * (PCI or CardBus), a function whose class was not read, or a storage
 * controller (Intel's VMD, class 0x0104, hosts a domain of its own). An
 * endpoint's directory holds only its files and class devices, so the walk
 * does not list it: most of a host's functions, and every VF.
 */
static int may_hold_functions(const struct nicfit_pcidev *p)
{
	unsigned base = p->class_code >> 16;

	return !(p->have & NICFIT_HAVE_CLASS) || base == 0x06 || base == 0x01 ||
	       base == 0x08 || base == 0xff;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct nicfit_dirent *)a)->name,
		      ((const struct nicfit_dirent *)b)->name);
}

/*
 * Every function under a directory of sys/devices/pci*, recursively, in
 * name order. A function already known (from the bus listing) has its
 * whole chain, and one that cannot hold functions has nothing below it to
 * walk: those are dropped before the rest is sorted, so a bridge with a
 * thousand known VFs below it costs a look-up each, not a sort.
 */
static void walk(struct disc *d, const char *dir, int depth)
{
	struct nicfit_dirent *ents;
	char path[TOPO_PATH_MAX];
	size_t n, i, keep = 0, dl = strlen(dir);
	int whole = nicfit_sysfs_recording_whole(d->fs);

	if (depth > NICFIT_TOPO_MAX_DEPTH || d->rc ||
	    nicfit_sysfs_list(d->fs, dir, &ents, &n, NICFIT_SYSFS_SUBDIRS | NICFIT__SYSFS_UNSORTED) !=
		    NICFIT_SYSFS_OK)
		return;
	for (i = 0; i < n; i++) {
		size_t len = strlen(ents[i].name);
		int bdf;

		if (ents[i].type != NICFIT_DT_DIR || dl + 1 + len >= sizeof(path))
			continue; /* not a directory, or a path that does not fit */
		bdf = is_bdf(ents[i].name, len);
		if (!bdf && !is_pci_root(ents[i].name, len))
			continue;
		if (bdf && !whole) {
			int k;

			memcpy(path, dir, dl);
			path[dl] = '/';
			memcpy(path + dl + 1, ents[i].name, len);
			k = nicfit__topo_find_path(d, path, dl + 1 + len);
			/* a snapshot keeps what the listing shows (links in it too) */
			if (k >= 0 && !may_hold_functions(&d->t->pci[k]))
				continue;
		}
		if (keep != i)
			ents[keep] = ents[i];
		keep++;
	}
	if (keep > 1)
		qsort(ents, keep, sizeof(*ents), cmp_name);
	for (i = 0; i < keep && !d->rc; i++) {
		size_t len = strlen(ents[i].name);

		memcpy(path, dir, dl);
		path[dl] = '/';
		memcpy(path + dl + 1, ents[i].name, len + 1);
		/*
		 * A function already known (from the bus listing) has its whole
		 * chain. A BDF is one function: another directory of a BDF already
		 * known is a copy (a damaged capture), and so is all below it.
		 */
		if (is_bdf(ents[i].name, len)) {
			int k = nicfit__topo_find_path(d, path, dl + 1 + len);

			if (k < 0) {
				if (nicfit_topo_find(d->t, ents[i].name) >= 0)
					continue;
				k = add_chain(d, path);
			}
			if (k >= 0 && !may_hold_functions(&d->t->pci[k]) && !whole)
				continue;
		}
		walk(d, path, depth + 1);
	}
	free(ents);
}

void nicfit__topo_read_pci_tree(struct disc *d)
{
	struct nicfit_dirent *ents;
	size_t n, i;
	enum nicfit_sysfs_status st;

	st = nicfit_sysfs_list(d->fs, "sys/bus/pci/devices", &ents, &n, 0);
	if (st == NICFIT_SYSFS_OK && n) {
		/*
		 * the listing tells how many functions come: one allocation, not
		 * a copy of them all at each growth (out of memory: they grow)
		 */
		size_t want = (size_t)d->t->npci + n;

		if (want > NICFIT_TOPO_MAX_PCI)
			want = NICFIT_TOPO_MAX_PCI;
		(void)NICFIT_ALLOC_GROW(d->t->pci, want, d->t->alloc_pci);
		for (i = 0; i < n && !d->rc; i++) {
			char path[TOPO_PATH_MAX], link[TOPO_PATH_MAX], canon[TOPO_PATH_MAX];
			int idx;

			nicfit__topo_pathf(path, sizeof(path), "sys/bus/pci/devices", ents[i].name);
			if (ents[i].type == NICFIT_DT_LINK) {
				if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) !=
				    NICFIT_SYSFS_OK ||
				    nicfit__topo_link_join(canon, sizeof(canon), "sys/bus/pci/devices", link))
					continue;
			} else if (nicfit_sysfs_resolve(d->fs, path, canon, sizeof(canon), 0) !=
				   NICFIT_SYSFS_OK) {
				continue;
			}
			idx = add_chain(d, canon);
			if (idx >= 0)
				d->t->pci[idx].in_bus_list = 1;
		}
	}
	free(ents);
	/*
	 * On a live host every function the kernel knows is on the bus
	 * (pci_device_add() registers it there): the walk only finds what a
	 * copied tree's listing lost. A snapshot still walks, to keep it all.
	 */
	if (st == NICFIT_SYSFS_OK && n && d->t->live && !nicfit_sysfs_recording_whole(d->fs))
		return;
	{
		struct nicfit_dirent *top;
		size_t m;

		if (nicfit_sysfs_list(d->fs, "sys/devices", &top, &m, 0) != NICFIT_SYSFS_OK)
			return;
		for (i = 0; i < m && !d->rc; i++) {
			char path[TOPO_PATH_MAX];

			if (top[i].type != NICFIT_DT_DIR ||
			    !is_pci_root(top[i].name, strlen(top[i].name)))
				continue;
			nicfit__topo_pathf(path, sizeof(path), "sys/devices", top[i].name);
			walk(d, path, 0);
		}
		free(top);
	}
}

/* Resolve the PF of a VF once all functions are known. */
static void read_physfn(struct disc *d, int idx)
{
	struct nicfit_pcidev *p = &d->t->pci[idx];
	char path[TOPO_PATH_MAX], link[TOPO_PATH_MAX], canon[TOPO_PATH_MAX];

	nicfit__topo_pathf(path, sizeof(path), p->path, "physfn");
	if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) != NICFIT_SYSFS_OK)
		return;
	if (nicfit__topo_link_join(canon, sizeof(canon), p->path, link))
		return;
	p->physfn = nicfit__topo_find_path(d, canon, strlen(canon));
}

void nicfit__topo_read_physfns(struct disc *d)
{
	int i;

	/* VFs are network, display or processing functions without SR-IOV of their own */
	for (i = 0; !d->rc && i < d->t->npci; i++) {
		const struct nicfit_pcidev *p = &d->t->pci[i];
		unsigned base = p->class_code >> 16;

		/*
		 * those read after a PF with VFs were asked as they were read; -2
		 * marks one whose physfn names a function not met by then
		 */
		if (p->physfn == -2) {
			d->t->pci[i].physfn = -1;
			read_physfn(d, i);
			continue;
		}
		if (d->vf_from >= 0 && i >= d->vf_from)
			continue;
		if (p->sriov_totalvfs < 0 && p->kind == NICFIT_DEV_OTHER &&
		    (base == 0x02 || base == 0x03 || base == 0x12))
			read_physfn(d, i);
	}
}

/* ---- slots -------------------------------------------------------------------- */

void nicfit__topo_read_slots(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents;
	size_t n, i;
	int j;

	if (nicfit_sysfs_list(d->fs, "sys/bus/pci/slots", &ents, &n, 0) != NICFIT_SYSFS_OK)
		return;
	/* an empty slot is placed by the bridge whose secondary bus it is on */
	for (j = 0; n && !nicfit_sysfs_recording_whole(d->fs) && j < t->npci; j++)
		nicfit__topo_read_secbus(d, j);
	for (i = 0; i < n; i++) {
		char path[TOPO_PATH_MAX], addr[64], sp[32];
		unsigned dom, bus, dev;
		struct nicfit_pcislot *s;
		double gts;

		if (ents[i].type != NICFIT_DT_DIR)
			continue;
		nicfit__fmt(path, sizeof(path), "sys/bus/pci/slots/%s/address", ents[i].name);
		if (nicfit_sysfs_read_str(d->fs, path, addr, sizeof(addr), 0) != NICFIT_SYSFS_OK)
			continue;
		if (nicfit_parse_pci_addr(addr, &dom, &bus, &dev, NULL)) {
			char tmp[80];
			unsigned fn;

			/* some kernels print the function too */
			nicfit__fmt(tmp, sizeof(tmp), "%s", addr);
			if (nicfit_parse_pci_addr(tmp, &dom, &bus, &dev, &fn)) {
				nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
				continue;
			}
		}
		if (NICFIT_ALLOC_GROW(t->slots, (size_t)t->nslots + 1, t->alloc_slots)) {
			nicfit__topo_fail(d, NICFIT_E_NOMEM, "out of memory");
			break;
		}
		s = &t->slots[t->nslots++];
		memset(s, 0, sizeof(*s));
		nicfit__fmt(s->name, sizeof(s->name), "%s", ents[i].name);
		s->domain = dom;
		s->bus = bus;
		s->dev = dev;
		s->pci = s->bridge = -1;
		nicfit__fmt(path, sizeof(path), "sys/bus/pci/slots/%s/max_bus_speed", ents[i].name);
		if (nicfit_sysfs_read_str(d->fs, path, sp, sizeof(sp), Q) == NICFIT_SYSFS_OK &&
		    !nicfit_parse_link_speed(sp, &gts))
			s->max_gts = gts;
		for (j = 0; j < t->npci; j++) {
			struct nicfit_pcidev *p = &t->pci[j];

			if (p->domain == dom && p->bus == bus && p->dev == dev) {
				if (s->pci < 0)
					s->pci = j;
				nicfit__fmt(p->slot, sizeof(p->slot), "%s", s->name);
			}
			if (p->domain == dom && p->secondary_bus == (int)bus && s->bridge < 0)
				s->bridge = j;
		}
	}
	free(ents);
}
