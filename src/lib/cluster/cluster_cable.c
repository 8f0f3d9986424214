/*
 * cluster_cable.c - what every link is cabled with, and how long it is.
 *
 * Lengths: a run inside one rack is vertical; between racks it goes up
 * each rack into the overhead tray and along and across the rows, with
 * slack (the layout assumptions of nicfit/cluster.h).
 *
 * Cables: inside one rack a DAC (or the breakout DAC of a split port) when
 * the catalog has one long enough; otherwise an AOC; otherwise a pair of
 * optics that reach and a fibre of stock length; otherwise a generic,
 * unpriced link. The choice depends on the cable class (the ends every
 * link of one network and level has) and the length only, and is cached
 * per decimetre. While sizing, each choice creates the counted items
 * (c->cables) and a kit that names them for the port map.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc_int.h"
#include "core/coding_int.h"
#include "cluster/cluster_int.h"
#include "nicfit/compat.h"
#include "core/num_int.h"

/* ---- positions and lengths ------------------------------------------------- */

/* Row, rack and height of endpoint id; the height in double, as nodes' are computed. */
static void where(const struct nicfit_cluster *c, long id, long *row, long *x, double *u)
{
	const struct nicfit_cluster_impl *im = c->impl;

	int tray = id < c->in.nodes;

	if (cl_is_rackdev(c, id)) {
		/* a switch tray sits among its rack's compute trays: at the height of
		 * the tray its index spreads it to */
		long j = id - (c->in.nodes + im->xbase + im->nx + im->nservers);
		long per = im->rackdev_per_rack, M = c->in.nodes_per_rack;

		id = j / per * M + j % per * M / per;
		tray = 1;
	}
	if (tray) {
		long M = c->in.nodes_per_rack, rack = id / M;
		long rpr = (long)c->in.layout.racks_per_row, i;

		if (rpr < 1)
			rpr = 1;
		*row = rack / rpr;
		i = rack % rpr;
		*x = i < im->row_half[*row] ? i : i + im->row_net[*row];
		*u = (double)(id % M) * c->in.layout.node_u + c->in.layout.node_u / 2;
	} else {
		const struct cl_pos *p = &im->pos[id - c->in.nodes];

		*row = p->row;
		*x = p->x;
		*u = p->u;
	}
}

void nicfit__cluster_where(const struct nicfit_cluster *c, long id, struct cl_pos *q)
{
	long row, x;
	double u;

	where(c, id, &row, &x, &u);
	q->row = (int32_t)row;
	q->x = (int32_t)x;
	q->u = (float)u;
}

/* Rows from front to back: the compute rows with the spine row in their middle, the
 * storage row behind them. */
static long row_y(const struct nicfit_cluster_impl *im, long row)
{
	long mid = im->crow / 2;

	if (im->has_storage_row && row == im->srow)
		return im->crow + im->has_spine_row;
	if (!im->has_spine_row)
		return row;
	if (row == im->crow)
		return mid;
	return row >= mid ? row + 1 : row;
}

static double run(const struct nicfit_cluster *c, long ra, long xa, double ua, long rb, long xb,
		  double ub, int *same_rack)
{
	const struct nicfit_cluster_layout *L = &c->in.layout;
	double d;

	*same_rack = ra == rb && xa == xb;
	if (*same_rack) {
		d = fabs(ua - ub) * L->u_m;
	} else {
		d = (L->rack_u - ua) * L->u_m + (L->rack_u - ub) * L->u_m + 2 * L->tray_m +
		    (double)labs(xa - xb) * L->rack_pitch_m +
		    (double)labs(row_y(c->impl, ra) - row_y(c->impl, rb)) * L->row_pitch_m;
		if (d < 0)
			d = 0;
	}
	return d * (1 + L->slack_frac) + L->slack_m;
}

double nicfit__cluster_length_pos(const struct nicfit_cluster *c, const struct cl_pos *a,
				  const struct cl_pos *b, int *same_rack)
{
	return run(c, a->row, a->x, a->u, b->row, b->x, b->u, same_rack);
}

double nicfit__cluster_length(const struct nicfit_cluster *c, long a, long b, int *same_rack)
{
	long ra, xa, rb, xb;
	double ua, ub;

	where(c, a, &ra, &xa, &ua);
	where(c, b, &rb, &xb, &ub);
	return run(c, ra, xa, ua, rb, xb, ub, same_rack);
}

/*
 * Past the stock table, fibre and AOC lengths are taken as made to order:
 * in 10 m steps up to STOCK_STEP10_MAX_M, 50 m steps up to
 * STOCK_STEP50_MAX_M, 100 m steps beyond (an assumption, the usual steps
 * of trunk-cable price lists).
 */
#define STOCK_STEP10_MAX_M 300
#define STOCK_STEP50_MAX_M 1000

/*
 * Generic twisted-pair patch cables go up to RJ45_MAX_M: the channel
 * length of 1000BASE-T and 10GBASE-T (IEEE 802.3 clauses 40 and 55).
 * Longer OOB runs get a catalog cable or a generic link.
 */
#define RJ45_MAX_M 100

/* The smallest stock length >= m. */
static double stock_length(double m)
{
	static const double stock[] = { 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 15, 20, 25, 30,
		35, 40, 50, 60, 70, 80, 90, 100 };
	size_t i;

	for (i = 0; i < sizeof(stock) / sizeof(stock[0]); i++)
		if (m <= stock[i] + NICFIT_EPS)
			return stock[i];
	if (m <= STOCK_STEP10_MAX_M)
		return ceil(m / 10 - NICFIT_EPS) * 10;
	if (m <= STOCK_STEP50_MAX_M)
		return ceil(m / 50 - NICFIT_EPS) * 50;
	return ceil(m / 100 - NICFIT_EPS) * 100;
}

/* ---- cable classes --------------------------------------------------------- */

static int is_optic(const struct nicfit_cable *k)
{
	return k->type == NICFIT_CABLE_OPTIC;
}

static int intel_coded(const struct nicfit_cable *k)
{
	return k->coding && strstr(k->coding, "intel");
}

/*
 * Do both ends of cable x plug into and run in the ports of class k
 * (nicfit_cable_end_fits: lanes, cage, top, coding), either way round?
 */
static int ends_fit(const struct cl_class *k, const struct nicfit_cable *x)
{
	return (nicfit_cable_end_fits(x, 0, &k->pa, NULL, 0) &&
		nicfit_cable_end_fits(x, 1, &k->pb, NULL, 0)) ||
	       (x->split == 1 && nicfit_cable_end_fits(x, 0, &k->pb, NULL, 0) &&
		nicfit_cable_end_fits(x, 1, &k->pa, NULL, 0));
}

/*
 * A DAC, AOC or RJ45 cable that joins the two ends of class k. None where
 * node ports share a twin-port cage (twin_b on a host link): a cable there
 * has one twin-port end for both ports of the node cage (NVIDIA's
 * MCP4Y10 -FLT DAC, flat top at the DGX H100, finned at the switch), so
 * both must go to one switch cage, and the walk gives a switch cage the
 * same rail of two nodes (rail-optimized) or a node's ports in port order,
 * never the two ports of one node cage; a single-port end does not go
 * into a twin-port cage (NVIDIA LinkX "Connectors and Cages",
 * https://docs.nvidia.com/networking/display/cableovpub/connectors+and+cages).
 * Such links take a twin-port optic per node cage and one fibre per port.
 *
 * Between two switches on twin-port cages (QM9700) the same holds but
 * where the walk pairs the cages (struct cl_class's paired): there a
 * twin-port cable with a twin-port end at each side, as many lanes as the
 * cage and twice the port's rate, joins both ports of one cage to both of
 * the far one (NVIDIA's MCA4J80 active copper, "twin-port OSFP for
 * 800G-to-800G switch-to-switch links", LinkX Copper DAC and LACC Cables
 * Overview, https://docs.nvidia.com/networking/display/400g100gpam4ovpub/copper-dac-and-lacc-cables-overview).
 */
static int twin_cable(const struct cl_class *k, const struct nicfit_cable *x)
{
	return x->type == NICFIT_CABLE_DAC && x->split == 1 &&
	       fabs(x->gbps - k->twin_a * k->gbps_b) < CL_RATE_EPS &&
	       nicfit_cage_takes(x->end_a, k->cage_a) && nicfit_cage_takes(x->end_b, k->cage_b);
}

static int cable_matches(const struct cl_class *k, const struct nicfit_cable *x)
{
	if (is_optic(x) || !(x->length_m > 0) || (k->level == NICFIT_LINK_HOST && k->twin_b > 1))
		return 0;
	if (k->twin_a > 1)
		return k->paired && k->twin_b == k->twin_a && !k->optics_only && ends_fit(k, x) &&
		       twin_cable(k, x);
	if (x->type != NICFIT_CABLE_RJ45 && (k->optics_only || !ends_fit(k, x)))
		return 0;
	if (k->intel_b && !intel_coded(x))
		return 0;
	if (x->type == NICFIT_CABLE_RJ45)
		return k->split == 1 && !strcasecmp(k->cage_a, "RJ45") &&
		       !strcasecmp(k->cage_b, "RJ45") && x->gbps >= k->gbps_b - NICFIT_EPS;
	if (k->split > 1) {
		if (x->split != k->split || fabs(x->gbps - k->gbps_a) > CL_RATE_EPS ||
		    fabs(x->lane_gbps - k->gbps_b) > CL_RATE_EPS)
			return 0;
		return nicfit_cage_takes(x->end_a, k->cage_a) && nicfit_cage_takes(x->end_b, k->cage_b);
	}
	if (x->split != 1 || fabs(x->gbps - k->gbps_b) > CL_RATE_EPS)
		return 0;
	return (nicfit_cage_takes(x->end_a, k->cage_a) && nicfit_cage_takes(x->end_b, k->cage_b)) ||
	       (nicfit_cage_takes(x->end_a, k->cage_b) && nicfit_cage_takes(x->end_b, k->cage_a));
}

/* A twin-port optic: one cage, `twin` logical ports of gbps each. */
static int twin_optic(const struct nicfit_cable *x, const struct nicfit_port *p, int twin,
		      double gbps)
{
	return is_optic(x) && nicfit_cable_end_fits(x, 0, p, NULL, 0) && x->split == twin &&
	       fabs(x->gbps - twin * gbps) < CL_RATE_EPS && fabs(x->lane_gbps - gbps) < CL_RATE_EPS;
}

/*
 * A twin-port optic on one single-port 800G switch cage, for a link to
 * another switch: its two 400G engines carry one 800G port over two
 * straight fibres. Why: NVIDIA documents its twin-port OSFP transceivers
 * "switch-to-switch at 800Gb/s", a twin-port module at each end joined by
 * two fibres (MMA4Z00-NS400 connectivity scenarios,
 * https://docs.nvidia.com/networking/display/MMA4Z00NS400T/Connectivity+Scenarios;
 * MMA4Z00-NS and MMS4X00-NS twin-port connectivity scenarios), which is
 * how a Spectrum-4 SN5600 or a Tomahawk 5 switch with 800G OSFP ports
 * runs its uplinks on optics. Only between two switches: a node port
 * meets such a cage as a 2 x 400G split instead.
 */
static int dual_optic(const struct cl_class *k, const struct nicfit_cable *x,
		      const struct nicfit_port *p)
{
	return is_optic(x) && k->split == 1 && k->twin_a == 1 && k->twin_b == 1 &&
	       k->pa.is_switch && k->pb.is_switch && x->split > 1 &&
	       fabs(x->gbps - k->gbps_b) < CL_RATE_EPS &&
	       fabs(x->lane_gbps * x->split - x->gbps) < CL_RATE_EPS &&
	       nicfit_cable_end_fits(x, 0, p, NULL, 0);
}

static int optic_a(const struct cl_class *k, const struct nicfit_cable *x)
{
	if (k->twin_a > 1)
		return twin_optic(x, &k->pa, k->twin_a, k->gbps_b);
	if (dual_optic(k, x, &k->pa))
		return 1;
	if (!is_optic(x) || !nicfit_cage_takes(x->end_a, k->cage_a) || x->split != k->split ||
	    !nicfit_cable_end_fits(x, 0, &k->pa, NULL, 0))
		return 0;
	if (k->split > 1)
		return fabs(x->gbps - k->gbps_a) < CL_RATE_EPS && fabs(x->lane_gbps - k->gbps_b) < CL_RATE_EPS;
	return fabs(x->gbps - k->gbps_b) < CL_RATE_EPS;
}

static int optic_b(const struct cl_class *k, const struct nicfit_cable *x)
{
	if (k->twin_b > 1)
		return twin_optic(x, &k->pb, k->twin_b, k->gbps_b);
	if (dual_optic(k, x, &k->pb))
		return 1;
	return is_optic(x) && nicfit_cage_takes(x->end_a, k->cage_b) && x->split == 1 &&
	       nicfit_cable_end_fits(x, 0, &k->pb, NULL, 0) &&
	       fabs(x->gbps - k->gbps_b) < CL_RATE_EPS && (!k->intel_b || intel_coded(x));
}

static int add_class(struct nicfit_cluster *c, enum nicfit_net n, enum nicfit_link_level lv,
		     double ga, const char *ca, double gb, const char *cb, int split, int twin,
		     int intel, const struct nicfit_port *pa, const struct nicfit_port *pb)
{
	struct nicfit_cluster_impl *im = c->impl;
	struct cl_class *k;

	if (im->nclasses == CL_MAX_CLASSES)
		return -1;
	k = &im->classes[im->nclasses];
	memset(k, 0, sizeof(*k));
	k->net = n;
	k->level = lv;
	k->gbps_a = ga;
	snprintf(k->cage_a, sizeof(k->cage_a), "%s", ca);
	k->gbps_b = gb;
	snprintf(k->cage_b, sizeof(k->cage_b), "%s", cb);
	k->split = split;
	k->twin_a = k->twin_b = twin > 1 ? twin : 1;
	k->intel_b = intel;
	k->pa = *pa;
	k->pb = *pb;
	return im->nclasses++;
}

static int copper(const struct nicfit_cable *x)
{
	return x->type == NICFIT_CABLE_DAC || x->type == NICFIT_CABLE_BREAKOUT_DAC ||
	       x->type == NICFIT_CABLE_RJ45;
}

/*
 * Class k's candidate lists (struct cl_class's cand): the catalog's
 * cables tested once against the class's ends, so that choosing a cable
 * for each of the tens of thousands of lengths a large cluster has tests
 * a handful of them, not the whole catalog again (the test of a cable's
 * ends against a class's ports was most of the sizing time at a million
 * GPUs). The order is the catalog's, so every choice is the same.
 */
static int class_candidates(const struct nicfit_catalog *cat, struct cl_class *k)
{
	size_t i, l, n = cat ? nicfit_catalog_count(cat, NICFIT_KIND_CABLE) : 0;

	for (l = 0; l < 4; l++) {
		k->cand[l] = malloc((n ? n : 1) * sizeof(*k->cand[l]));
		if (!k->cand[l])
			return -1;
	}
	for (i = 0; i < n; i++) {
		const struct nicfit_cable *x = nicfit_catalog_cable(cat, i);

		l = copper(x) ? CL_CAND_COPPER : CL_CAND_FAR;
		if (cable_matches(k, x))
			k->cand[l][k->ncand[l]++] = x;
		if (optic_a(k, x))
			k->cand[CL_CAND_OPTIC_A][k->ncand[CL_CAND_OPTIC_A]++] = x;
		if (optic_b(k, x))
			k->cand[CL_CAND_OPTIC_B][k->ncand[CL_CAND_OPTIC_B]++] = x;
	}
	return 0;
}

/* A class's candidate lists and kit caches, unset (-1). */
static int class_caches(const struct nicfit_catalog *cat, struct cl_class *k)
{
	if (class_candidates(cat, k))
		return -1;
	k->cache[0] = malloc(CL_CACHE_DM * sizeof(int32_t));
	k->cache[1] = malloc(CL_CACHE_DM * sizeof(int32_t));
	if (!k->cache[0] || !k->cache[1])
		return -1;
	memset(k->cache[0], 0xff, CL_CACHE_DM * sizeof(int32_t));
	memset(k->cache[1], 0xff, CL_CACHE_DM * sizeof(int32_t));
	k->cache_dm[0] = k->cache_dm[1] = CL_CACHE_DM;
	return 0;
}

/*
 * Room in cache s for decimetre dm, the new ones unset. The caches grow
 * with the longest link: held to 3 km, they left every longer link to
 * choose its cable again, a scan of the catalog each, and a cluster past
 * 50,000 nodes has hundreds of thousands of such links (its spine-core
 * runs cross a thousand rows), so the run time grew with the square of
 * the nodes. Returns 0, or -1 (that length stays uncached) past
 * CL_CACHE_MAX_DM or without memory.
 */
static int cache_room(struct cl_class *k, int s, long dm)
{
	size_t have = k->cache_dm[s];

	if (dm < 0 || dm >= CL_CACHE_MAX_DM)
		return -1;
	if ((size_t)dm < have)
		return 0;
	if (NICFIT_ALLOC_GROW(k->cache[s], (size_t)dm + 1, k->cache_dm[s]))
		return -1;
	memset(k->cache[s] + have, 0xff, (k->cache_dm[s] - have) * sizeof(int32_t));
	return 0;
}

int nicfit__cluster_add_class(struct nicfit_cluster *c, int list, enum nicfit_link_level lv,
			      double ga, const char *ca, double gb, const char *cb, int split,
			      int twin, const struct nicfit_port *pa, const struct nicfit_port *pb)
{
	int i = add_class(c, NICFIT_NET_COUNT, lv, ga, ca, gb, cb, split, twin, 0, pa, pb);

	if (i < 0)
		return -1;
	c->impl->classes[i].list = list;
	return class_caches(c->impl->cat, &c->impl->classes[i]) ? -1 : i;
}

int nicfit__cluster_classes(struct nicfit_cluster *c, struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im = c->impl;
	int n, lv, i;

	for (n = 0; n < NICFIT_NET_COUNT; n++) {
		const struct nicfit_cluster_net *nt = &c->net[n];
		struct cl_net *cn = &im->net[n];
		int intel = n == NICFIT_NET_BACKEND && c->nic && c->nic->module_coding &&
			    !strcasecmp(c->nic->module_coding, "intel");

		for (lv = 0; lv < NICFIT_LINK_LEVELS; lv++)
			cn->cls[lv] = -1;
		if (!nt->enabled)
			continue;
		/* node ports share a cable per switch cage: split ports and twin-port cages */
		cn->cls[NICFIT_LINK_HOST] =
			add_class(c, n, NICFIT_LINK_HOST, nt->port_gbps * nt->sw.per_cage, nt->sw.cage,
				  nt->link_gbps, n == NICFIT_NET_OOB ? "RJ45" : nt->node_cage,
				  nt->breakout * nt->sw.per_cage, 1, intel, &cn->sw_port,
				  &cn->node_port);
		if (cn->cls[NICFIT_LINK_HOST] >= 0) {
			im->classes[cn->cls[NICFIT_LINK_HOST]].optics_only =
				nt->fit.kind == NICFIT_MATCH_OPTICS;
			/* node ports in the node's twin-port cages: one module per node cage */
			if (cn->node_port.per_cage > 1)
				im->classes[cn->cls[NICFIT_LINK_HOST]].twin_b = cn->node_port.per_cage;
		}
		if (n == NICFIT_NET_OOB)
			cn->cls[NICFIT_LINK_MGMT] =
				add_class(c, n, NICFIT_LINK_MGMT, nt->link_gbps, nt->sw.cage,
					  nt->link_gbps, "RJ45", 1, 1, 0, &cn->sw_port, &cn->node_port);
		if (cn->tiers >= 2) {
			cn->cls[NICFIT_LINK_LEAF_SPINE] = i =
				add_class(c, n, NICFIT_LINK_LEAF_SPINE, nt->sw.gbps, nt->sw.cage,
					  nt->sw.gbps, nt->sw.cage, 1, nt->sw.per_cage, 0,
					  &cn->sw_port, &cn->sw_port);
			if (i >= 0)
				im->classes[i].paired =
					cl_twin_paired(nt->sw.per_cage, cn->u, cn->spines);
		}
		if (cn->tiers >= 3) {
			cn->cls[NICFIT_LINK_SPINE_CORE] = i =
				add_class(c, n, NICFIT_LINK_SPINE_CORE, nt->sw.gbps, nt->sw.cage,
					  nt->sw.gbps, nt->sw.cage, 1, nt->sw.per_cage, 0,
					  &cn->sw_port, &cn->sw_port);
			if (i >= 0)
				im->classes[i].paired = cl_twin_paired(nt->sw.per_cage, cn->sup, cn->cg);
		}
	}
	for (i = 0; i < im->nclasses; i++)
		if (class_caches(im->cat, &im->classes[i]))
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	return 0;
}

void nicfit__cluster_kits_free(struct nicfit_cluster_impl *im)
{
	int i, l;

	for (i = 0; i < im->nclasses; i++) {
		free(im->classes[i].cache[0]);
		free(im->classes[i].cache[1]);
		for (l = 0; l < 4; l++)
			free(im->classes[i].cand[l]);
	}
	free(im->kits);
	im->kits = NULL;
	im->nkits = im->alloc_kits = 0;
}

/* ---- items and kits --------------------------------------------------------- */

/* The cable list of a class, its length and its allocation. */
static struct nicfit_cluster_cable **list_of(struct nicfit_cluster *c, int list, size_t **n,
					     size_t **cap)
{
	struct nicfit_cluster_impl *im = c->impl;

	switch (list) {
	case CL_LIST_STORAGE:
		*n = &c->storage.ncables;
		*cap = &im->alloc_scables;
		return &c->storage.cables;
	case CL_LIST_BORDER:
		*n = &c->border.ncables;
		*cap = &im->alloc_bcables;
		return &c->border.cables;
	default:
		*n = &c->ncables;
		*cap = &im->alloc_cables;
		return &c->cables;
	}
}

/* The items of class k's list (read-only). */
static struct nicfit_cluster_cable *items_of(const struct nicfit_cluster *cc, int list)
{
	size_t *n, *cap;

	return *list_of((struct nicfit_cluster *)cc, list, &n, &cap);
}

/* The counted item (net, level, part), created while counting. -1 if absent. */
static int item(const struct nicfit_cluster *cc, const struct cl_class *k,
		const struct nicfit_cable *cat, const char *part, const char *type,
		const char *desc, double length, double gbps)
{
	struct nicfit_cluster *c = (struct nicfit_cluster *)cc;
	struct nicfit_cluster_impl *im = c->impl;
	struct nicfit_cluster_cable *x, **v;
	size_t i, *n, *cap;

	v = list_of(c, k->list, &n, &cap);
	for (i = 0; i < *n; i++)
		if ((*v)[i].net == k->net && (*v)[i].level == k->level && !strcmp((*v)[i].part, part))
			return (int)i;
	if (!im->counting)
		return -1;
	if (NICFIT_ALLOC_GROW(*v, *n + 1, *cap))
		return -1;
	x = &(*v)[*n];
	memset(x, 0, sizeof(*x));
	x->net = k->net;
	x->level = k->level;
	x->cat = cat;
	snprintf(x->part, sizeof(x->part), "%s", part);
	snprintf(x->type, sizeof(x->type), "%s", type);
	snprintf(x->description, sizeof(x->description), "%s", desc);
	x->length_m = length;
	x->gbps = gbps;
	return (int)(*n)++;
}

static int cat_item(const struct nicfit_cluster *c, const struct cl_class *k,
		    const struct nicfit_cable *x)
{
	return item(c, k, x, x->e.id, nicfit_cable_type_name(x->type),
		    x->e.name ? x->e.name : x->e.id, x->length_m > 0 ? x->length_m : 0, x->gbps);
}

static void lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

static int kit(const struct nicfit_cluster *cc, int cls, enum cl_kit_type type, int ip, int il,
	       int ifb, int nfib)
{
	struct nicfit_cluster *c = (struct nicfit_cluster *)cc;
	struct nicfit_cluster_impl *im = c->impl;
	const struct nicfit_cluster_cable *v;
	struct cl_kit *kt;
	size_t i;

	for (i = 0; i < im->nkits; i++) {
		kt = &im->kits[i];
		if (kt->cls == cls && kt->type == type && kt->item_port == ip &&
		    kt->item_leg == il && kt->item_fiber == ifb && kt->fibers == nfib)
			return (int)i;
	}
	if (!im->counting || ip < 0)
		return -1;
	if (NICFIT_ALLOC_GROW(im->kits, im->nkits + 1, im->alloc_kits))
		return -1;
	kt = &im->kits[im->nkits];
	memset(kt, 0, sizeof(*kt));
	kt->cls = cls;
	kt->type = type;
	kt->item_port = ip;
	kt->item_leg = il;
	kt->item_fiber = ifb;
	kt->fibers = nfib;
	v = items_of(c, im->classes[cls].list);
	if (type == KIT_OPTICS && nfib > 1)
		snprintf(kt->label, sizeof(kt->label), "%s + %dx %s + %s", v[ip].part, nfib,
			 ifb >= 0 ? v[ifb].part : "fiber", il >= 0 ? v[il].part : "?");
	else if (type == KIT_OPTICS)
		snprintf(kt->label, sizeof(kt->label), "%s + %s + %s", v[ip].part,
			 ifb >= 0 ? v[ifb].part : "fiber", il >= 0 ? v[il].part : "?");
	else
		snprintf(kt->label, sizeof(kt->label), "%s", v[ip].part);
	return (int)im->nkits++;
}

/* Is a better than b: shorter length (or reach), priced and cheaper, a part number, id. */
static int better(const struct nicfit_cable *a, const struct nicfit_cable *b, double la,
		  double lb, double pa, double pb)
{
	if (!b)
		return 1;
	if (fabs(la - lb) > NICFIT_EPS)
		return la < lb;
	if ((pa >= 0) != (pb >= 0))
		return pa >= 0;
	if (pa >= 0 && fabs(pa - pb) > NICFIT_EPS)
		return pa < pb;
	if ((a->part != NULL) != (b->part != NULL))
		return a->part != NULL;
	return strcmp(a->e.id, b->e.id) < 0;
}

static double price(const struct nicfit_cable *x)
{
	return x->e.priced ? x->e.price_usd : -1;
}

/* The catalog switch of class k's network (NULL for a generic one). */
static const struct nicfit_switch *class_switch(const struct nicfit_cluster *c,
						const struct cl_class *k)
{
	/* the storage network's and the border's classes are of no walked network (net COUNT) */
	return k->net < NICFIT_NET_COUNT ? c->net[k->net].sw.cat :
	       k->list == CL_LIST_STORAGE ? c->storage.sw.cat :
					    c->net[NICFIT_NET_FRONTEND].sw.cat;
}

/*
 * What the switch ends of a class ask of a module's coding: the switch's
 * vendor's own (nicfit__coding_score, core/coding_int.h, the rule plan
 * weighs at a NIC end too).
 */
struct coding_want {
	const char *vendor;     /* the catalog switch's vendor; NULL generic */
	int a, b;               /* end a, end b is a switch port */
};

static void coding_want(const struct nicfit_cluster *c, const struct cl_class *k,
			struct coding_want *w)
{
	const struct nicfit_switch *sw = class_switch(c, k);

	w->vendor = sw && sw->vendor && sw->vendor[0] ? sw->vendor : NULL;
	w->a = k->pa.is_switch;
	w->b = k->pb.is_switch;
}

/* The coding score of module x at the switch ends of class k (both ends of a cable). */
static int ends_score(const struct coding_want *w, const struct nicfit_cable *x, int at_a,
		      int at_b)
{
	int one = nicfit__coding_score(x->coding, w->vendor);

	return (at_a && w->a ? one : 0) + (at_b && w->b ? one : 0);
}

/*
 * Whether a cable sold for one fabric only (an HDR InfiniBand DAC) may
 * cable this network: only where the network is known to be that fabric,
 * from its catalog switch or a named InfiniBand rate.
 */
static int fabric_fits(const struct nicfit_cluster *c, const struct cl_class *k,
		       const struct nicfit_cable *x)
{
	/* the storage network's and the border's classes are of no walked network (net COUNT) */
	int walked = k->net < NICFIT_NET_COUNT;
	const struct nicfit_switch *sw = class_switch(c, k);
	const char *fab = sw ? sw->fabric :
			  walked && c->in.net[k->net].link_ib[0] ? "infiniband" : NULL;

	return !x->fabric || (fab && !strcasecmp(fab, x->fabric));
}

/*
 * The catalog cable of the given kinds that reaches len, or NULL: the one
 * whose coding suits the switch ends best (ends_score), then the
 * shortest, priced and cheapest.
 */
static const struct nicfit_cable *pick_cable(const struct nicfit_cluster *c,
					     const struct cl_class *k, double len, int cu)
{
	const struct nicfit_cable *best = NULL;
	int l = cu ? CL_CAND_COPPER : CL_CAND_FAR, cs, best_cs = 0;
	struct coding_want w;
	size_t i;

	coding_want(c, k, &w);
	for (i = 0; i < k->ncand[l]; i++) {
		const struct nicfit_cable *x = k->cand[l][i];

		if (!fabric_fits(c, k, x))
			continue;
		if (x->length_m < len - NICFIT_EPS || (x->max_length_m > 0 && len > x->max_length_m + NICFIT_EPS))
			continue;
		cs = ends_score(&w, x, 1, 1);
		if (best && cs != best_cs) {
			if (cs < best_cs) {
				best = x;
				best_cs = cs;
			}
			continue;
		}
		if (better(x, best, x->length_m, best ? best->length_m : 0, price(x),
			   best ? price(best) : -1)) {
			best = x;
			best_cs = cs;
		}
	}
	return best;
}

static int optics_compatible(const struct nicfit_cable *a, const struct nicfit_cable *b)
{
	const char *sa = a->standard, *sb = b->standard;

	if (!a->end_b || !b->end_b || strcasecmp(a->end_b, b->end_b))
		return 0;
	if ((a->fiber || b->fiber) && (!a->fiber || !b->fiber || strcasecmp(a->fiber, b->fiber)))
		return 0;
	if (!sa || !sb)
		return 1;
	/* "2x 400GBASE-SR4" is two "400GBASE-SR4" */
	if (sa[0] >= '1' && sa[0] <= '9' && (sa[1] == 'x' || sa[1] == 'X'))
		sa += sa[2] == ' ' ? 3 : 2;
	if (sb[0] >= '1' && sb[0] <= '9' && (sb[1] == 'x' || sb[1] == 'X'))
		sb += sb[2] == ' ' ? 3 : 2;
	return !strcasecmp(sa, sb);
}

/*
 * The pair of optics for a link of class k that needs len metres: the pair
 * whose codings suit the switch ends best (ends_score), then the one
 * that reaches least, priced and cheapest. 0 if none.
 */
static int pick_optics(const struct nicfit_cluster *c, const struct cl_class *k, double len,
		       const struct nicfit_cable **pa, const struct nicfit_cable **pb)
{
	size_t i, j;
	double best_reach = 0, best_price = -1, best_far = 0;
	int cs, best_cs = 0;
	struct coding_want w;

	coding_want(c, k, &w);
	*pa = *pb = NULL;
	for (i = 0; i < k->ncand[CL_CAND_OPTIC_A]; i++) {
		const struct nicfit_cable *a = k->cand[CL_CAND_OPTIC_A][i];

		if (a->max_length_m < len - NICFIT_EPS)
			continue;
		for (j = 0; j < k->ncand[CL_CAND_OPTIC_B]; j++) {
			const struct nicfit_cable *b = k->cand[CL_CAND_OPTIC_B][j];
			double reach, far, pr;

			if (b->max_length_m < len - NICFIT_EPS || !optics_compatible(a, b))
				continue;
			/* an unsplit link has as many fibres at both ends */
			if (k->split == 1 && a->split != b->split)
				continue;
			reach = a->max_length_m < b->max_length_m ? a->max_length_m : b->max_length_m;
			far = a->max_length_m + b->max_length_m - reach;
			pr = a->e.priced && b->e.priced ? a->e.price_usd + b->e.price_usd : -1;
			cs = ends_score(&w, a, 1, 0) + ends_score(&w, b, 0, 1);
			/*
			 * the pair coded best for its switch ends, then the pair that
			 * reaches least, then whose other end reaches least: a 100 m DR4
			 * link is two 100 m modules, not one 100 m and one 500 m
			 */
			if (*pa && cs != best_cs) {
				if (cs > best_cs)
					continue;
			} else if (*pa && fabs(reach - best_reach) <= NICFIT_EPS && fabs(far - best_far) > NICFIT_EPS) {
				if (far > best_far)
					continue;
			} else if (*pa && !(*pa == a ? better(b, *pb, reach, best_reach, pr, best_price) :
					    better(a, *pa, reach, best_reach, pr, best_price))) {
				continue;
			}
			*pa = a;
			*pb = b;
			best_cs = cs;
			best_reach = reach;
			best_far = far;
			best_price = pr;
		}
	}
	return *pa != NULL;
}

/*
 * The kit of a pair of optics, end a's oa and end b's ob, with a fibre of
 * stock metres between them; remembered as the class's last (struct
 * cl_class's last_kit).
 */
static int optics_kit(const struct nicfit_cluster *c, int cls, const struct nicfit_cable *oa,
		      const struct nicfit_cable *ob, double stock)
{
	struct cl_class *k = &c->impl->classes[cls];
	const char *conn = oa->end_b && !strncasecmp(oa->end_b, "MPO", 3) ? "mpo12" : "lc";
	const char *fib = oa->fiber && !strcasecmp(oa->fiber, "SMF") ? "smf" : "mmf";
	/* a twin-port optic on an unsplit port: one fibre per engine */
	int nfib = k->split == 1 && k->twin_a == 1 && oa->split > 1 ? oa->split : 1;
	char part[64], desc[160];
	int ip, il, ifb, i;

	snprintf(part, sizeof(part), "fiber-%s-%s-%gm", conn, fib, stock);
	snprintf(desc, sizeof(desc), "%s %s fibre patch cord, %g m (generic)",
		 oa->end_b ? oa->end_b : "LC", !strcmp(fib, "smf") ? "single-mode" : "multimode",
		 stock);
	ip = cat_item(c, k, oa);
	il = cat_item(c, k, ob);
	ifb = item(c, k, NULL, part, "fiber", desc, stock, k->gbps_b / nfib);
	i = kit(c, cls, KIT_OPTICS, ip, il, ifb, nfib);
	if (i >= 0) {
		k->last_oa = oa;
		k->last_ob = ob;
		k->last_stock = stock;
		k->last_kit = i + 1;
	}
	return i;
}

/*
 * Choose what cables a link (or split port) of class cls that needs len
 * metres, and return its kit. Copper first inside a rack (and between
 * paired twin-port switch cages, twin_cable()): a DAC is the
 * cheapest, lowest-power link and reaches a few metres, which is what a
 * rack needs. RJ45 ends take a catalog or a generic Cat6a patch cable
 * (up to RJ45_MAX_M). Between racks an AOC when one is long enough, else
 * a pair of optics that reach with a fibre of stock length between them,
 * else a generic link that says no catalog part fits: never a guess at a
 * part number.
 */
static int choose(const struct nicfit_cluster *c, int cls, double len, int same_rack)
{
	const struct cl_class *k = &c->impl->classes[cls];
	const struct nicfit_cable *x, *oa, *ob;
	char part[64], desc[160], ca[16], cb[16];
	double stock = stock_length(len);

	/*
	 * between paired twin-port switch cages copper spans racks too: NVIDIA
	 * prefers its linear active copper to optics from 3 to 5 m, "to extend
	 * the low-cost, low-power, and low latency of copper cables from 3- to
	 * 5-meters which can span several racks" (LinkX Copper DAC and LACC
	 * Cables Overview, see twin_cable())
	 */
	if (same_rack || k->paired) {
		x = pick_cable(c, k, len, 1);
		if (x)
			return kit(c, cls, KIT_CABLE, cat_item(c, k, x), -1, -1, 1);
	}
	if (!strcasecmp(k->cage_a, "RJ45") && !strcasecmp(k->cage_b, "RJ45")) {
		x = pick_cable(c, k, len, 1);
		if (x)
			return kit(c, cls, KIT_CABLE, cat_item(c, k, x), -1, -1, 1);
		if (stock <= RJ45_MAX_M) {
			snprintf(part, sizeof(part), "cat6a-%gm", stock);
			snprintf(desc, sizeof(desc), "Cat6a RJ45 patch cable, %g m (generic)", stock);
			return kit(c, cls, KIT_CABLE,
				   item(c, k, NULL, part, "rj45", desc, stock, k->gbps_b), -1, -1, 1);
		}
	}
	x = pick_cable(c, k, len, 0);
	if (x)
		return kit(c, cls, KIT_CABLE, cat_item(c, k, x), -1, -1, 1);
	if (pick_optics(c, k, len, &oa, &ob)) {
		if (k->last_kit && k->last_oa == oa && k->last_ob == ob && k->last_stock == stock)
			return k->last_kit - 1;
		return optics_kit(c, cls, oa, ob, stock);
	}
	snprintf(ca, sizeof(ca), "%s", k->cage_a);
	snprintf(cb, sizeof(cb), "%s", k->cage_b);
	lower(ca);
	lower(cb);
	if (k->split > 1) {
		snprintf(part, sizeof(part), "link-%gg-%s-%dx%gg-%s-%gm", k->gbps_a, ca, k->split,
			 k->gbps_b, cb, stock);
		snprintf(desc, sizeof(desc),
			 "%gG %s to %d x %gG %s split link, %g m: no catalog cable or optic fits (generic)",
			 k->gbps_a, k->cage_a, k->split, k->gbps_b, k->cage_b, stock);
	} else {
		snprintf(part, sizeof(part), "link-%gg-%s-%s-%gm", k->gbps_b, ca, cb, stock);
		snprintf(desc, sizeof(desc),
			 "%gG %s to %s link, %g m: no catalog cable or optic fits (generic)",
			 k->gbps_b, k->cage_a, k->cage_b, stock);
	}
	return kit(c, cls, KIT_GENERIC, item(c, k, NULL, part, "generic", desc, stock, k->gbps_b),
		   -1, -1, 1);
}

const struct cl_kit *nicfit__cluster_kit_for(const struct nicfit_cluster *c, int cls, double len,
					     int same_rack)
{
	struct nicfit_cluster_impl *im = c->impl;
	struct cl_class *k = &im->classes[cls];
	long dm = (long)ceil(len * 10 - NICFIT_EPS);
	int s = same_rack ? 0 : 1, i;
	int32_t *cache = k->cache[s];

	if (dm >= 0 && (size_t)dm < k->cache_dm[s] && cache && cache[dm] >= 0)
		return &im->kits[cache[dm]];
	i = choose(c, cls, len, same_rack);
	if (i < 0)
		return NULL;
	if (im->counting && cache && !cache_room(k, s, dm))
		k->cache[s][dm] = i;
	return &im->kits[i];
}

/* Count the items of one cabled port (legs links). On twin-port cages a
 * switch-to-switch link takes a new optic only on the first port of a cage
 * (first_a, first_b), the other port shares it; so does a host link at a
 * node cage two node ports share (first_b: how many of the legs are the
 * first of their node cage). */
void nicfit__cluster_count_kit(const struct nicfit_cluster *cc, const struct cl_kit *kt, int legs,
			       int first_a, int first_b)
{
	struct nicfit_cluster *c = (struct nicfit_cluster *)cc;
	struct nicfit_cluster_cable *v;

	if (!c->impl->counting || !kt)
		return;
	v = items_of(c, c->impl->classes[kt->cls].list);
	v[kt->item_port].qty += first_a;
	v[kt->item_port].links += legs;
	if (kt->item_leg >= 0) {
		v[kt->item_leg].qty += kt->type == KIT_OPTICS &&
			c->impl->classes[kt->cls].twin_b > 1 ? first_b : legs;
		/* a link with the same optic at both ends counts once */
		if (kt->item_leg != kt->item_port)
			v[kt->item_leg].links += legs;
	}
	if (kt->item_fiber >= 0) {
		v[kt->item_fiber].qty += legs * (kt->fibers > 1 ? kt->fibers : 1);
		v[kt->item_fiber].links += legs;
	}
}
