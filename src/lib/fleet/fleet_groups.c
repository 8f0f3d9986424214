/*
 * fleet_groups.c - hosts grouped by hardware, and groups compared with the
 * groups of hosts built alike.
 *
 * A host's hardware signature is its server model and its GPUs,
 * accelerators and NICs by kind, PCI ID and address: hosts with the same
 * signature are a group, and only hosts of one group are compared value by
 * value (fleet_compare.c). Groups that are meant to be the same machine
 * (the same model and GPU models, see alike()) are compared with their
 * largest group to find the devices that are missing, extra or moved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"
#include "nicfit/buf.h"

/* ---- the hardware signature ---------------------------------------------------------------- */

/* Sort the host's devices by BDF (usually already in order). */
struct dev_sorted {
	const char *bdf;
	struct fl_dev d;
};

static int dev_cmp(const void *x, const void *y)
{
	return strcmp(((const struct dev_sorted *)x)->bdf, ((const struct dev_sorted *)y)->bdf);
}

int nicfit__fleet_sort_devs(struct nicfit_fleet *fl, size_t off, size_t n)
{
	struct dev_sorted *t;
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(fl_str(&fl->st, fl->devs[off + i - 1].bdf),
			   fl_str(&fl->st, fl->devs[off + i].bdf)) > 0)
			break;
	if (i >= n)
		return 0;
	t = malloc(n * sizeof(*t));
	if (!t)
		return -1;
	for (i = 0; i < n; i++) {
		t[i].d = fl->devs[off + i];
		t[i].bdf = fl_str(&fl->st, t[i].d.bdf);
	}
	qsort(t, n, sizeof(*t), dev_cmp);
	for (i = 0; i < n; i++)
		fl->devs[off + i] = t[i].d;
	free(t);
	return 0;
}

/*
 * "VENDOR PRODUCT; KIND PCIID BDF; ..." over the signature devices, in BDF
 * order. The address is part of it: the same cards in other slots are
 * another layout (other NUMA nodes, other paths), and comparing their
 * link or NUMA values device by device would compare different slots.
 */
uint32_t nicfit__fleet_signature(struct nicfit_fleet *fl, uint32_t product, uint32_t vendor,
				 size_t off, size_t n)
{
	struct nicfit_buf b;
	uint32_t id;
	size_t i;

	nicfit_buf_init(&b, 1 << 20);
	nicfit_buf_addf(&b, "%s%s%s", vendor ? fl_str(&fl->st, vendor) : "",
			vendor ? " " : "", product ? fl_str(&fl->st, product) : "unknown model");
	for (i = 0; i < n; i++) {
		const struct fl_dev *d = &fl->devs[off + i];

		if (d->sig)
			nicfit_buf_addf(&b, "; %s %s %s", fl_str(&fl->st, d->kind),
					fl_str(&fl->st, d->model), fl_str(&fl->st, d->bdf));
	}
	id = nicfit_buf_error(&b) ? 0 : nicfit__fleet_intern(&fl->st, b.data, b.len);
	nicfit_buf_release(&b);
	return id;
}

/* ---- groups -------------------------------------------------------------------------------- */

struct sig_ent {
	uint32_t sig;
	size_t host;
};

static int sig_ent_cmp(const void *x, const void *y)
{
	const struct sig_ent *a = x, *b = y;

	if (a->sig != b->sig)
		return a->sig < b->sig ? -1 : 1;
	return a->host < b->host ? -1 : a->host > b->host;
}

static int grp_cmp(const void *x, const void *y)
{
	const struct fl_grp *a = x, *b = y;
	int c;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	c = strcmp(a->label_s, b->label_s);
	return c ? c : strcmp(a->sig_s, b->sig_s);
}

/* Labels list GPUs, then accelerators, then NICs: the parts a cluster is sized by. */
static int kind_order(const char *k)
{
	if (!k)
		return 3;
	if (!strcmp(k, "gpu"))
		return 0;
	if (!strcmp(k, "accelerator"))
		return 1;
	if (!strcmp(k, "nic"))
		return 2;
	return 3;
}

struct model_count {
	const char *kind, *name, *model;
	size_t n;
};

static int mc_cmp(const void *x, const void *y)
{
	const struct model_count *a = x, *b = y;
	int c = kind_order(a->kind) - kind_order(b->kind);

	if (c)
		return c;
	c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->model, b->model);
}

/* Count the host's signature devices by model. Returns how many entries. */
static size_t model_counts(const struct nicfit_fleet *fl, const struct fl_host *h,
			   struct model_count *mc, size_t max)
{
	size_t n = 0, i, j;

	for (i = 0; i < h->ndev; i++) {
		const struct fl_dev *d = &fl->devs[h->dev_off + i];

		if (!d->sig)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(mc[j].model, fl_str(&fl->st, d->model)))
				break;
		if (j == n) {
			if (n == max)
				continue;
			mc[n].kind = fl_str(&fl->st, d->kind);
			mc[n].name = nicfit__fleet_dev_label(fl, d);
			mc[n].model = fl_str(&fl->st, d->model);
			mc[n].n = 0;
			n++;
		}
		mc[j].n++;
	}
	qsort(mc, n, sizeof(*mc), mc_cmp);
	return n;
}

#define MAX_MODELS 64

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * A group's label ("PowerEdge R740xd: 2x NVIDIA A40, 1x ConnectX-6 Dx")
 * and the sorted sets of its GPU and NIC models that alike() compares,
 * from its first host (every host of a group has the same devices).
 */
static void group_names(struct fl_an *a, struct fl_grp *g)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_host *h = &fl->hosts[fl->group_hosts[g->off]];
	struct model_count mc[MAX_MODELS];
	size_t n = model_counts(fl, h, mc, MAX_MODELS), i;
	struct nicfit_buf b;

	g->ngpus = g->nnics = 0;
	g->sig = h->sig;
	g->product = h->product;
	g->nsig = 0;
	for (i = 0; i < h->ndev; i++)
		g->nsig += fl->devs[h->dev_off + i].sig;
	nicfit_buf_init(&b, FL_TEXT_MAX);
	nicfit_buf_puts(&b, h->product ? fl_str(&fl->st, h->product) : "unknown model");
	for (i = 0; i < n; i++) {
		uint32_t id = nicfit__fleet_intern0(&fl->st, mc[i].model);

		nicfit_buf_addf(&b, "%s%zux %s", i ? ", " : ": ", mc[i].n, mc[i].name);
		if (kind_order(mc[i].kind) < 2 && g->ngpus < FL_GROUP_MODELS)
			g->gpus[g->ngpus++] = id;
		else if (kind_order(mc[i].kind) == 2 && g->nnics < FL_GROUP_MODELS)
			g->nics[g->nnics++] = id;
	}
	qsort(g->gpus, (size_t)g->ngpus, sizeof(uint32_t), u32_cmp);
	qsort(g->nics, (size_t)g->nnics, sizeof(uint32_t), u32_cmp);
	if (!n)
		nicfit_buf_puts(&b, ": no GPU or NIC");
	g->label = nicfit__fleet_intern_buf(a, &b);
	nicfit_buf_release(&b);
	g->label_s = fl_str(&fl->st, g->label);
	g->sig_s = fl_str(&fl->st, g->sig);
}

/*
 * Hosts with the same signature are a group, in input order within it;
 * groups are numbered largest first (then by label), since the largest is
 * what most of a fleet looks like. Groups that share a label differ only
 * in which slots hold the devices: their labels get "(layout N)".
 */
int nicfit__fleet_make_groups(struct fl_an *a, struct fl_grp **out, size_t *nout)
{
	struct nicfit_fleet *fl = a->fl;
	struct sig_ent *se = calloc(fl->nhosts, sizeof(*se));
	struct fl_grp *groups = NULL;
	size_t i, j, ng = 0, capg = 0;
	int rc = 0;

	fl->group_hosts = calloc(fl->nhosts, sizeof(*fl->group_hosts));
	if (!se || !fl->group_hosts) {
		rc = NICFIT_E_NOMEM;
		goto out;
	}
	for (i = 0; i < fl->nhosts; i++) {
		se[i].sig = fl->hosts[i].sig;
		se[i].host = i;
	}
	qsort(se, fl->nhosts, sizeof(*se), sig_ent_cmp);
	for (i = 0; i < fl->nhosts; i = j) {
		struct fl_grp g;

		for (j = i; j < fl->nhosts && se[j].sig == se[i].sig; j++)
			fl->group_hosts[j] = se[j].host;
		memset(&g, 0, sizeof(g));
		g.off = i;
		g.n = j - i;
		group_names(a, &g);
		if (a->err || NICFIT_ALLOC_GROW(groups, ng + 1, capg)) {
			rc = NICFIT_E_NOMEM;
			goto out;
		}
		groups[ng++] = g;
	}
	qsort(groups, ng, sizeof(*groups), grp_cmp);
	for (i = 0; i < ng; i++) {
		for (j = 0; j < groups[i].n; j++)
			fl->hosts[fl->group_hosts[groups[i].off + j]].group = (int)i;
		for (j = 0; j < i; j++)
			if (groups[j].label == groups[i].label) {
				groups[i].label = nicfit__fleet_intern_fmt(
					a, "%s (layout %zu)", groups[i].label_s, i + 1);
				break;
			}
	}
out:
	free(se);
	*out = groups;
	*nout = ng;
	return rc;
}

/* ---- groups built alike -------------------------------------------------------------------- */

struct hwdiff {
	const struct fl_dev *r, *g; /* r only: missing; g only: extra; both: changed */
	int paired;
};

#define MAX_DIFF_SHOWN 6

/*
 * The signature devices of hr that hg lacks (r only), those hg has and hr
 * not (g only), and those at one BDF that are another model (both), into
 * d[]. A device missing here and an extra one of the same model there is
 * the same card in another slot: paired (1 on the missing entry, which
 * then names the new place, 2 on the extra one). Returns how many entries,
 * with *missing set when a device is missing and not moved.
 */
static size_t hw_diff(const struct nicfit_fleet *fl, const struct fl_host *hr,
		      const struct fl_host *hg, struct hwdiff *d, int *missing)
{
	size_t nd = 0, i = 0, j = 0, k;

	*missing = 0;
	/* both device lists are sorted by BDF */
	while (i < hr->ndev || j < hg->ndev) {
		const struct fl_dev *dr = i < hr->ndev ? &fl->devs[hr->dev_off + i] : NULL;
		const struct fl_dev *dg = j < hg->ndev ? &fl->devs[hg->dev_off + j] : NULL;
		int c;

		if (dr && !dr->sig) {
			i++;
			continue;
		}
		if (dg && !dg->sig) {
			j++;
			continue;
		}
		c = !dr ? 1 : !dg ? -1 : strcmp(fl_str(&fl->st, dr->bdf), fl_str(&fl->st, dg->bdf));
		if (c < 0) {
			d[nd].r = dr;
			d[nd++].g = NULL;
			i++;
		} else if (c > 0) {
			d[nd].r = NULL;
			d[nd++].g = dg;
			j++;
		} else {
			if (dr->model != dg->model) {
				d[nd].r = dr;
				d[nd++].g = dg;
			}
			i++;
			j++;
		}
	}
	/* a device missing here and an extra one of the same model there: moved */
	for (i = 0; i < nd; i++) {
		if (!d[i].r || d[i].g || d[i].paired)
			continue;
		for (k = 0; k < nd; k++)
			if (!d[k].r && d[k].g && !d[k].paired && d[k].g->model == d[i].r->model) {
				d[i].paired = 1;
				d[k].paired = 2;
				d[i].g = d[k].g;
				break;
			}
		if (!d[i].paired)
			*missing = 1;
	}
	return nd;
}

/* "no ConnectX-6 Dx at 0000:31:00.0; extra ... at ..." for d[0..nd). */
static void hw_describe(const struct nicfit_fleet *fl, const struct hwdiff *d, size_t nd,
			struct nicfit_buf *b)
{
	size_t i, shown = 0;

	for (i = 0; i < nd; i++) {
		const char *sep = shown ? "; " : "";

		if (d[i].paired == 2)
			continue;
		if (shown == MAX_DIFF_SHOWN) {
			shown++;
			nicfit_buf_puts(b, "; more differences");
			break;
		}
		shown++;
		if (d[i].r && d[i].g && d[i].paired)
			nicfit_buf_addf(b, "%s%s at %s instead of %s", sep,
					nicfit__fleet_dev_label(fl, d[i].g),
					fl_str(&fl->st, d[i].g->bdf), fl_str(&fl->st, d[i].r->bdf));
		else if (d[i].r && d[i].g)
			nicfit_buf_addf(b, "%s%s holds %s instead of %s", sep,
					fl_str(&fl->st, d[i].g->bdf),
					nicfit__fleet_dev_label(fl, d[i].g),
					nicfit__fleet_dev_label(fl, d[i].r));
		else if (d[i].r)
			nicfit_buf_addf(b, "%sno %s at %s", sep,
					nicfit__fleet_dev_label(fl, d[i].r),
					fl_str(&fl->st, d[i].r->bdf));
		else
			nicfit_buf_addf(b, "%sextra %s at %s", sep,
					nicfit__fleet_dev_label(fl, d[i].g),
					fl_str(&fl->st, d[i].g->bdf));
	}
	if (!nd)
		nicfit_buf_puts(b, "the same devices, but the server model or vendor differs");
}

/*
 * Compare group g with the reference group r of hosts built alike. A
 * device the reference has and g lacks (not moved elsewhere) is critical:
 * a GPU that fell off the bus or a NIC that died is what this looks for,
 * and the job that lands on that host runs short. A device extra, moved to
 * another slot, or of another model at a slot is a warning: the host works
 * but is not built like its peers (another NUMA node, another path). strict
 * says r is a true majority of the hosts built alike.
 */
static void hardware_anomaly(struct fl_an *a, const struct fl_grp *groups, int gi, int ri,
			     int strict, size_t family_hosts)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_grp *g = &groups[gi], *r = &groups[ri];
	const struct fl_host *hg = &fl->hosts[fl->group_hosts[g->off]];
	const struct fl_host *hr = &fl->hosts[fl->group_hosts[r->off]];
	struct hwdiff *d;
	size_t nd, i;
	int missing;
	enum nicfit_severity sev;
	struct fl_anom *x;
	struct nicfit_buf b;

	if (nicfit__fleet_ignored_code(a, NICFIT_CODE_HARDWARE_DIFFERS))
		return;
	d = calloc((size_t)hg->ndev + hr->ndev + 1, sizeof(*d));
	if (!d) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	nd = hw_diff(fl, hr, hg, d, &missing);
	sev = missing ? NICFIT_SEV_CRITICAL : NICFIT_SEV_WARNING;
	x = nicfit__fleet_anom_new(a, -1, sev,
				   nicfit__fleet_code_id(a, NICFIT_CODE_HARDWARE_DIFFERS), gi, 0);
	if (!x) {
		free(d);
		return;
	}
	x->attribute = "hardware";
	x->majority = strict;
	x->subject = nicfit__fleet_intern0(&fl->st, "hardware");
	x->expected = r->label;
	for (i = 0; i < g->n; i++)
		nicfit__fleet_anom_host(a, x, fl->group_hosts[g->off + i]);
	nicfit__fleet_anom_value(a, x, r->label, fl->group_hosts + r->off, r->n, strict);
	nicfit__fleet_anom_value(a, x, g->label, fl->group_hosts + g->off, g->n, 0);
	nicfit_buf_init(&b, FL_TEXT_MAX);
	if (strict)
		nicfit_buf_addf(&b, "hardware differs from the %zu other %s host%s (group %d): ",
				r->n, r->product ? fl_str(&fl->st, r->product) : "alike",
				fl_plural(r->n), ri + 1);
	else
		nicfit_buf_addf(&b, "hardware differs, no majority among the %zu %s hosts; "
				"compared with group %d: ", family_hosts,
				r->product ? fl_str(&fl->st, r->product) : "alike", ri + 1);
	hw_describe(fl, d, nd, &b);
	x->message = nicfit__fleet_intern_buf(a, &b);
	nicfit_buf_release(&b);
	free(d);
}

/* Sorted set a[0..na) within b[0..nb). */
static int subset(const uint32_t *a, int na, const uint32_t *b, int nb)
{
	int i = 0, j = 0;

	while (i < na && j < nb) {
		if (a[i] == b[j])
			i++;
		j++;
	}
	return i == na;
}

/*
 * Groups meant to be built alike: the same server model (or both unknown),
 * and one's GPU and accelerator models all found in the other's (counts may
 * differ: a GPU that fell off the bus is what we look for). A DMI product
 * alone is too coarse ("Super Server"). A group without GPUs is alike only
 * when its NIC models are the same too, so a CPU-only box of the same
 * model is not taken for a GPU server that lost its GPUs.
 */
static int alike(const struct fl_grp *x, const struct fl_grp *y)
{
	if (x->product != y->product)
		return 0;
	if (!subset(x->gpus, x->ngpus, y->gpus, y->ngpus) &&
	    !subset(y->gpus, y->ngpus, x->gpus, x->ngpus))
		return 0;
	if (!x->ngpus || !y->ngpus)
		return x->nnics == y->nnics && !memcmp(x->nics, y->nics, sizeof(uint32_t) * (size_t)x->nnics);
	return 1;
}

static int cluster_root(struct fl_grp *g, int i)
{
	while (g[i].cluster != i) {
		g[i].cluster = g[g[i].cluster].cluster;
		i = g[i].cluster;
	}
	return i;
}

/*
 * Groups built alike (alike(), joined transitively) are compared with one
 * reference: the cluster's largest group when it holds a strict majority
 * of the cluster's hosts, since that is how the machine is meant to be
 * built. Without a majority nobody can say which build is right, so the
 * reference is the group with the most devices (a missing device is then
 * named, an extra one is not invented) and the message says there is no
 * majority.
 */
void nicfit__fleet_compare_families(struct fl_an *a, struct fl_grp *groups, size_t ng)
{
	size_t i, j, total;
	int ref;

	for (i = 0; i < ng; i++)
		groups[i].cluster = (int)i;
	for (i = 0; i < ng; i++)
		for (j = i + 1; j < ng; j++)
			if (alike(&groups[i], &groups[j])) {
				int ri = cluster_root(groups, (int)i), rj = cluster_root(groups, (int)j);

				/* groups are sorted by size: keep the larger (earlier) as root */
				if (ri < rj)
					groups[rj].cluster = ri;
				else if (rj < ri)
					groups[ri].cluster = rj;
			}
	for (i = 0; i < ng; i++)
		groups[i].cluster = cluster_root(groups, (int)i);
	for (i = 0; i < ng; i++) {
		if (groups[i].cluster != (int)i)
			continue;
		total = 0;
		ref = (int)i; /* the root is the cluster's largest group */
		for (j = i; j < ng; j++)
			if (groups[j].cluster == (int)i)
				total += groups[j].n;
		if (total == groups[i].n)
			continue;
		if (groups[i].n * 2 <= total) {
			/* no majority: compare with the group that has the most devices */
			for (j = i; j < ng; j++)
				if (groups[j].cluster == (int)i && groups[j].nsig > groups[ref].nsig)
					ref = (int)j;
		}
		for (j = i; j < ng && !a->err; j++)
			if (groups[j].cluster == (int)i && (int)j != ref)
				hardware_anomaly(a, groups, (int)j, ref, groups[i].n * 2 > total,
						 total);
	}
}
