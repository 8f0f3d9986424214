/*
 * topo_discover.c - discovery's driver: one sysfs tree into a new host
 * model (nicfit_topo_discover, see nicfit/topo.h).
 *
 * Order: host identity, NUMA nodes, the PCI tree (from the bus listing,
 * adding every bridge on each device's canonical path; a walk of
 * sys/devices/pci* when there is no listing), VFs to their PFs, slots,
 * network interfaces, RDMA devices, PFC, the GPUDirect kernel pieces,
 * then classification and, only for the devices an audit cares about
 * (GPUs, accelerators, NICs and the bridges above them), config space,
 * VPD and the IOMMU group. Each file is read once. The steps themselves
 * live in the files topo_int.h lists; this one runs them in order, stops
 * at the first hard error and hands over the read problems.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fmt_int.h"
#include "host/topo_int.h"

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

	*out = NULL;
	memset(&d, 0, sizeof(d));
	d.fs = fs;
	d.err = err;
	d.vf_from = -1;
	d.t = nicfit_topo_new();
	if (!d.t)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__fmt(d.t->root, sizeof(d.t->root), "%s", nicfit_sysfs_root(fs));
	d.t->live = nicfit_sysfs_is_live(fs);
	nicfit__topo_read_host(&d);
	if (!d.rc)
		nicfit__topo_read_numa(&d);
	if (!d.rc)
		nicfit__topo_read_pci_tree(&d);
	if (!d.rc)
		nicfit__topo_read_drivers(&d);
	if (!d.rc)
		nicfit__topo_read_physfns(&d);
	if (!d.rc)
		nicfit__topo_read_slots(&d);
	if (!d.rc)
		nicfit__topo_read_net(&d);
	if (!d.rc)
		nicfit__topo_read_rdma(&d);
	if (!d.rc)
		nicfit__topo_read_pfc(&d);
	if (!d.rc)
		nicfit__topo_read_gdr(&d);
	if (!d.rc) {
		nicfit_topo_finish(d.t);
		nicfit__topo_read_extras(&d);
		nicfit__topo_read_links(&d);
		/* config space may have named port types: infer the rest again */
		nicfit__topo_infer_ports(d.t);
	}
	copy_problems(&d);
	free(d.hash);
	free(d.vf_pfs);
	free(d.vf_links);
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
