/*
 * topo_int.h - what the files of discovery share (not public).
 *
 * Discovery (nicfit/topo.h) is cut by concept: topo.c is the model
 * (building it, queries, classification), topo_discover.c the driver
 * that runs the steps in order, topo_host.c the host itself (identity,
 * NUMA nodes, GPUDirect kernel pieces), topo_pci.c the PCI tree walk and
 * slots, topo_pcidev.c the identity and link of one PCI function,
 * topo_net.c network interfaces, RDMA devices and PFC, topo_extras.c
 * what only the audited devices need (config space, VPD, IOMMU group).
 * Each step reads through the same struct disc and records the first hard
 * error in it; the driver stops at that error. Calls go one way only: the
 * driver calls the steps, the steps call the model (topo.c), and
 * topo_pci.c calls topo_pcidev.c for each new function; topo_net.c finds
 * a class device's function through topo_pci.c's path index.
 */
#ifndef NICFIT_TOPO_INT_H
#define NICFIT_TOPO_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "topo_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "nicfit/topo.h"

#define TOPO_PATH_MAX NICFIT_SYSFS_PATH_MAX

/* One discovery run. */
#define TOPO_LINK_TEXTS 32
#define TOPO_LINK_CUR 0x10000u
#define TOPO_LINK_MAX 0x20000u

struct disc {
	struct nicfit_sysfs *fs;
	struct nicfit_topo *t;
	struct nicfit_error *err;
	int *hash;          /* function path -> pci index + 1 (topo_pci.c) */
	size_t hashcap;
	/*
	 * The SR-IOV PFs with VFs enabled met so far (topo_pcidev.c): a
	 * function of a VF's class beside one of them is asked for its physfn
	 * link first, and a VF then costs no link, NUMA or SR-IOV files. The
	 * bus listing is in address order and a VF's routing ID is above its
	 * PF's, so the PF comes first; functions read before the first such PF
	 * (index below vf_from) are asked after the tree is known.
	 */
	int *vf_pfs;
	size_t nvf_pfs, alloc_vf_pfs;
	int vf_from;        /* -1 until a PF with VFs is met */
	/* the VFs read_vf met, in index order: each takes its PF's link */
	int *vf_links;
	size_t nvf_links, alloc_vf_links;
	/*
	 * The kernel's link speed text for each register value met so far
	 * (topo_pcidev.c): the first function with a value reads its file,
	 * the others with that value take what it said.
	 */
	struct {
		unsigned key;  /* TOPO_LINK_CUR | CLS, or TOPO_LINK_MAX | SLS | SLSV << 4 */
		char text[24];
		double gts;
		int known;     /* the text names a speed (not "Unknown") */
	} link_texts[TOPO_LINK_TEXTS];
	int nlink_texts;
	int cfg_copy;       /* config files: 0 not asked yet, 1 plain copies, 2 the kernel's */
	int rc;             /* first hard error */
};

/*
 * Record a hard error (the first one wins) and return the code to stop
 * with. A limit or bad data is the tree's, so the error names it (the
 * root read); running out of memory is nobody's input.
 */
static inline int nicfit__topo_fail(struct disc *d, int code, const char *what)
{
	if (d->rc)
		return d->rc;
	if (code == NICFIT_E_NOMEM || !d->t->root[0])
		d->rc = nicfit_error_set(d->err, code, "%s", what);
	else
		d->rc = nicfit_error_at(d->err, code, d->t->root, 0, 0, "%s", what);
	return d->rc;
}

/* dir/name into out; "" when it does not fit (a read of "" is MISSING). */
static inline void nicfit__topo_pathf(char *out, size_t cap, const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);

	if (a + 1 + b >= cap) {
		if (cap)
			out[0] = '\0';
		return;
	}
	memcpy(out, dir, a);
	out[a] = '/';
	memcpy(out + a + 1, name, b + 1);
}

/* s into out, cut to cap - 1 bytes as snprintf's "%s" would be, without the printf. */
static inline void nicfit__topo_copy(char *out, size_t cap, const char *s)
{
	size_t n;

	if (!cap)
		return;
	n = strnlen(s, cap - 1);
	memcpy(out, s, n);
	out[n] = '\0';
}

/* topo.c: infer every port type not read from config space (parents first). */
void nicfit__topo_infer_ports(struct nicfit_topo *t);

/* topo_host.c */
/*
 * One range "a" or "a-b" of a CPU or node list that parsed (digits, '-'
 * and ','): its bounds, and where the next range starts.
 */
const char *nicfit__topo_list_range(const char *p, long *a, long *b);
void nicfit__topo_read_host(struct disc *d);
int nicfit__topo_read_numa(struct disc *d);
void nicfit__topo_read_gdr(struct disc *d);

/* topo_pci.c */
void nicfit__topo_read_pci_tree(struct disc *d);
/* The function whose canonical path is the first n bytes of path, or -1. */
int nicfit__topo_find_path(struct disc *d, const char *path, size_t n);
/* The function whose path is the longest prefix of path ending before a '/', or -1. */
int nicfit__topo_find_prefix(struct disc *d, const char *path);
/* Link each VF to its PF, once every function is known. */
void nicfit__topo_read_physfns(struct disc *d);
void nicfit__topo_read_slots(struct disc *d);

/* topo_pcidev.c: the identity, NUMA and SR-IOV files of function idx. */
void nicfit__topo_read_function(struct disc *d, int idx);
/*
 * A link's target joined to the canonical directory dir it is in, as
 * nicfit__path_join() joins them (the same result and return): the
 * kernel's "../../name/name" is joined by one copy, anything else by
 * nicfit__path_join(). dir must be canonical (no "", "." or ".."
 * component, no '/' at either end), as every device path here is.
 */
int nicfit__topo_link_join(char *out, size_t cap, const char *dir, const char *link);
/*
 * After config space (nicfit__topo_read_extras): every function's link
 * speed and width, from its PCIe capability's registers where config was
 * read, else from the kernel's four link files; a VF takes its PF's.
 */
void nicfit__topo_read_links(struct disc *d);
/*
 * A bridge's secondary bus from its file: what places an empty slot
 * (nicfit__topo_read_slots, where the tree has slots; a snapshot keeps
 * every one). Config space gives it too where discovery reads it.
 */
void nicfit__topo_read_secbus(struct disc *d, int idx);
/* After the PCI tree: whether the tree shows drivers (topo->drivers_listed). */
void nicfit__topo_read_drivers(struct disc *d);

/* topo_net.c */
void nicfit__topo_read_net(struct disc *d);
void nicfit__topo_read_rdma(struct disc *d);
void nicfit__topo_read_pfc(struct disc *d);

/* topo_extras.c: config space, VPD and IOMMU group of the audited devices. */
void nicfit__topo_read_extras(struct disc *d);

#endif
