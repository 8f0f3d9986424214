/*
 * audit.c - judging the host model (see nicfit/audit.h): the driver that
 * runs the passes in order (audit_int.h lists them and their files), and
 * the result: its counts, --ignore, the exit status, freeing it. Nothing
 * here reads a file.
 */
#include <stdlib.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/fmt_int.h"

/*
 * The PCI function a finding's device names, or -1: findings name a device
 * by BDF, by its label, or (RDMA and interface findings) by the RDMA
 * device or interface name, and a user may name it by any of these.
 */
static int function_named(const struct nicfit_audit *a, const char *name)
{
	const struct nicfit_topo *t = a->topo;
	int i;

	for (i = 0; i < t->npci; i++)
		if (!strcmp(t->pci[i].bdf, name))
			return i;
	for (i = 0; i < a->ndevs; i++)
		if (!strcmp(a->devs[i].label, name))
			return a->devs[i].pci;
	for (i = 0; i < t->nrdma; i++)
		if (!strcmp(t->rdma[i].name, name))
			return t->rdma[i].pci;
	for (i = 0; i < t->nnet; i++)
		if (!strcmp(t->net[i].name, name))
			return t->net[i].pci;
	return -1;
}

/* 1 when --ignore's DEVICE names f's device: the same name, or the same function. */
static int same_device(const struct nicfit_audit *a, const char *want, const char *device)
{
	int fw, fd;

	if (!strcmp(want, device))
		return 1;
	fw = function_named(a, want);
	fd = function_named(a, device);
	return fw >= 0 && fw == fd;
}

/* 1 when a --ignore pattern (CODE or CODE@DEVICE) matches f. */
static int ignored(const struct nicfit_audit *a, const struct nicfit_finding *f)
{
	int i;

	for (i = 0; i < a->nignore; i++) {
		const char *pat = a->ignore[i], *at = strchr(pat, '@');
		size_t n = at ? (size_t)(at - pat) : strlen(pat);

		if (strlen(f->code) != n || strncmp(f->code, pat, n))
			continue;
		if (!at || (f->device && same_device(a, at + 1, f->device)))
			return 1;
	}
	return 0;
}

int nicfit__audit_settle(struct nicfit_audit *a)
{
	size_t i;

	for (i = 0; i < a->findings.n; i++)
		a->findings.v[i].ignored = ignored(a, &a->findings.v[i]);
	if (a->findings.oom)
		return NICFIT_E_NOMEM;
	return nicfit_findings_sort(&a->findings);
}

size_t nicfit__audit_nignored(const struct nicfit_audit *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->findings.n; i++)
		n += a->findings.v[i].ignored != 0;
	return n;
}

/* 1 when devs[i] is the first function of a network card. */
static int card_first(const struct nicfit__audit_ctx *c, int i)
{
	const struct nicfit_audit *a = c->a;

	return i == 0 || a->devs[i - 1].kind != NICFIT_DEV_NIC ||
	       !nicfit__audit_same_card(P(c, a->devs[i - 1].pci), P(c, a->devs[i].pci));
}

/*
 * GPUs, accelerators, network cards, those with RDMA and those of which
 * that is unknown (VFs left out).
 */
static void count_devices(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i, j, rdma, unknown;

	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (P(c, d->pci)->physfn >= 0)
			continue;
		a->ngpus += d->kind == NICFIT_DEV_GPU;
		a->naccels += d->kind == NICFIT_DEV_ACCEL;
		if (d->kind != NICFIT_DEV_NIC || !card_first(c, i))
			continue;
		a->nnics++;
		rdma = unknown = 0;
		for (j = i; j < a->ndevs && a->devs[j].kind == NICFIT_DEV_NIC &&
			    nicfit__audit_same_card(P(c, a->devs[j].pci), P(c, d->pci)); j++) {
			rdma |= a->devs[j].rdma;
			unknown |= a->devs[j].rdma_unknown;
		}
		a->nrdma_nics += rdma;
		a->nrdma_unknown += !rdma && unknown;
	}
}

/*
 * sysfs-unreadable: a tree that shows no PCI function with a readable
 * vendor and class gave the audit nothing to judge - an empty sys/, a
 * directory that is not a sysfs capture, or one whose files all came out
 * empty or unreadable (a copy made without permission to read them). Every
 * Linux host with a GPU or NIC has PCI functions, so "clean" would be a
 * wrong answer: a critical finding, so that the exit status (2) and a
 * fleet summary say the host was not audited.
 */
static void judge_readable(struct nicfit__audit_ctx *c)
{
	const struct nicfit_topo *t = c->t;
	const unsigned need = NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS;
	int i, readable = 0, no_ids = 0, no_class = 0;
	char why[160];
	size_t n = 0;

	for (i = 0; i < t->npci; i++) {
		readable += (t->pci[i].have & need) == need;
		no_ids += (t->pci[i].absent & NICFIT_HAVE_IDS) != 0;
		no_class += (t->pci[i].absent & NICFIT_HAVE_CLASS) != 0;
	}
	if (readable)
		return;
	/* what is missing, as the tree shows it: absent files, then unreadable ones */
	why[0] = '\0';
	if (no_ids)
		n += (size_t)nicfit__fmt(why + n, sizeof(why) - n, "%d without a vendor or device "
					 "file", no_ids);
	if (no_class && n < sizeof(why))
		n += (size_t)nicfit__fmt(why + n, sizeof(why) - n, "%s%d without a class file",
					 n ? ", " : "", no_class);
	if ((t->problems_total || !n) && n < sizeof(why))
		nicfit__fmt(why + n, sizeof(why) - n, "%s%zu file%s could not be read or parsed",
			    n ? "; " : "", t->problems_total, t->problems_total == 1 ? "" : "s");
	if (!t->npci)
		nicfit__audit_find(c, NICFIT_SEV_CRITICAL, NICFIT_CODE_SYSFS_UNREADABLE, "host",
				   NULL, "Point --sysfs at the directory that holds a host's sys/ "
				   "(a copy made with `nicfit snapshot`), or run on the host itself.",
				   "No PCI devices under %s (sys/bus/pci/devices and sys/devices hold "
				   "none): nothing was audited.", t->root);
	else
		nicfit__audit_find(c, NICFIT_SEV_CRITICAL, NICFIT_CODE_SYSFS_UNREADABLE, "host",
				   NULL, "Take the capture again with `nicfit snapshot` (it copies what "
				   "the files hold), or run the audit on the host itself.",
				   "None of the %d PCI functions under %s has a readable vendor and "
				   "class (%s): nothing was audited.", t->npci, t->root, why);
}

/*
 * NCCL's test for the kernel's GPUDirect RDMA support (docs/reference/
 * topology.md 1.1): nv_peer_mem's peer-memory client, or the
 * nvidia_peermem module. A tree without sys/module (a capture that left it
 * out, a dump) cannot show that nvidia_peermem is absent: without a peer
 * client there, the support is unknown (-1), not missing.
 */
static int gdr_kernel(const struct nicfit_topo *t)
{
	if (t->nv_mem || t->nv_mem_nc || t->nvidia_peermem)
		return 1;
	return t->modules_listed ? 0 : -1;
}

/* The passes, in the order their findings appear within a severity. */
static void judge(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i;

	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].kind != NICFIT_DEV_BRIDGE && a->devs[i].kind != NICFIT_DEV_HOST)
			nicfit__audit_judge_link(c, &a->devs[i]);
		else
			nicfit__audit_measure_link(c, &a->devs[i]);
	for (i = 0; i < a->ndevs; i++) {
		struct nicfit_audit_dev *d = &a->devs[i];

		if (d->kind != NICFIT_DEV_NIC || P(c, d->pci)->physfn >= 0)
			continue;
		if (card_first(c, i))
			nicfit__audit_judge_card(c, i);
		nicfit__audit_judge_port_speed(c, d);
	}
	nicfit__audit_judge_rdma(c);
	nicfit__audit_pairs(c);
	if (c->oom)
		return;
	nicfit__audit_judge_gpus(c);
	nicfit__audit_judge_gdr(c);
	nicfit__audit_judge_acs(c);
	nicfit__audit_judge_config(c);
	nicfit__audit_judge_iommu(c);
	nicfit__audit_judge_host(c);
	judge_readable(c);
}

/*
 * Names from pci.ids come before the rules, so a finding names a device as
 * the device table does. Without a file named, a host without pci.ids
 * keeps the generic names; a file named that cannot be read is an error.
 */
static int name_from_pciids(struct nicfit__audit_ctx *c, struct nicfit_error *err)
{
	const char *path = c->o->pci_ids_path;
	int rc;

	if (!c->o->pci_ids)
		return 0;
	rc = nicfit_audit_name_from_pciids(c->a, path, path ? err : NULL);
	return path ? rc : 0;
}

int nicfit_audit_judge(const struct nicfit_topo *topo, const struct nicfit_catalog *cat,
		       const struct nicfit_audit_opts *opts, struct nicfit_audit **out,
		       struct nicfit_error *err)
{
	static const struct nicfit_audit_opts none;
	struct nicfit__audit_ctx c;
	struct nicfit_audit *a;
	int i, rc;

	*out = NULL;
	for (i = 0; opts && i < opts->nignore; i++) {
		rc = nicfit_code_check_ignore(opts->ignore[i], NICFIT_ENGINE_AUDIT, "--ignore", err);
		if (rc)
			return rc;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.t = topo;
	c.cat = cat;
	c.o = opts ? opts : &none;
	a->topo = topo;
	a->cat = cat;
	a->ignore = c.o->ignore;
	a->nignore = c.o->nignore;
	a->all = c.o->all;
	if (c.o->pcie)
		a->pcie = *c.o->pcie;
	else
		nicfit_pcie_params_default(&a->pcie);
	a->gdr_kernel = gdr_kernel(topo);
	a->nsockets = topo->npackages;
	rc = 0;
	if (nicfit__audit_choose_devices(&c))
		c.oom = 1;
	else
		rc = name_from_pciids(&c, err);
	if (!c.oom && !rc) {
		count_devices(&c);
		judge(&c);
	}
	if (rc) {
		free(c.dev_of);
		free(c.seen_link);
		nicfit_audit_free(a);
		return rc;
	}
	free(c.dev_of);
	free(c.seen_link);
	if (c.oom || nicfit__audit_settle(a)) {
		nicfit_audit_free(a);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	*out = a;
	return 0;
}

void nicfit_audit_free(struct nicfit_audit *a)
{
	if (!a)
		return;
	free(a->devs);
	free(a->pairs);
	nicfit_findings_release(&a->findings);
	free(a->not_checked);
	nicfit__audit_paste_free(a->paste);
	free(a);
}

int nicfit_audit_exit_code(const struct nicfit_audit *a)
{
	switch (nicfit_findings_worst(&a->findings)) {
	case NICFIT_SEV_CRITICAL:
		return 2;
	case NICFIT_SEV_WARNING:
		return 1;
	default:
		return a->nothing_to_judge ? 3 : 0;
	}
}
